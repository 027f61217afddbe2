# Shell helpers of the outside runners (run.sh, oz.sh), sourced by both.

# A free loopback port.
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
# Waits until a JSON-RPC server answers eth_chainId at $1 (up to 2 minutes).
wait_rpc() {
  for _ in $(seq 1 240); do
    curl -sf -m 2 -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$1" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}
