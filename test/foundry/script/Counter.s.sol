// SPDX-License-Identifier: MIT
pragma solidity ^0.8.13;

import {Script, console} from "forge-std/Script.sol";
import {Counter} from "../src/Counter.sol";

/// @notice Deploys Counter, sets it to 42 and increments it: three transactions when broadcast.
contract CounterScript is Script {
    function run() public returns (Counter counter) {
        vm.startBroadcast();
        counter = new Counter();
        counter.setNumber(42);
        counter.increment();
        vm.stopBroadcast();
        console.log("Counter deployed at", address(counter));
    }
}
