// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A token whose holders delegate their votes, as ERC20Votes does in short: once a
/// holder has delegated, each of its transfers also writes its delegate's checkpoint,
/// so a transfer costs more gas after `delegate` than before it.
contract Votes {
    mapping(address => uint256) public balanceOf;
    mapping(address => address) public delegates;
    mapping(address => uint256[]) public checkpoints;

    constructor(uint256 supply) {
        balanceOf[msg.sender] = supply;
    }

    function delegate(address to) external {
        delegates[msg.sender] = to;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        address delegatee = delegates[msg.sender];
        if (delegatee != address(0)) checkpoints[delegatee].push(balanceOf[msg.sender]);
        return true;
    }
}
