// SPDX-License-Identifier: MIT
pragma solidity ^0.8.13;

import {Test} from "forge-std/Test.sol";
import {Counter} from "../src/Counter.sol";

/// @notice Run with `forge test --fork-url <dualnet>`: reads the state CounterScript left
///         on dualnet (COUNTER: its address; DEPLOYER: the dev account that broadcast it).
contract ForkTest is Test {
    Counter counter;
    address deployer;

    function setUp() public {
        counter = Counter(vm.envAddress("COUNTER"));
        deployer = vm.envAddress("DEPLOYER");
    }

    function test_readsDualnetState() public view {
        assertEq(block.chainid, 12345);
        assertEq(counter.number(), 43);
        assertEq(counter.owner(), deployer);
        assertGt(address(counter).code.length, 0);
        // The deployer paid no fee (gas price 0): 10,000 gas tokens, the ether of JSON-RPC.
        assertEq(deployer.balance, 10_000 ether);
        assertEq(vm.getNonce(deployer), 3);
    }

    function test_writesOnTheFork() public {
        counter.increment();
        assertEq(counter.number(), 44);
        vm.expectRevert(bytes("Counter: not the owner"));
        counter.reset();
        vm.prank(deployer);
        counter.reset();
        assertEq(counter.number(), 0);
    }
}
