// SPDX-License-Identifier: MIT
pragma solidity ^0.8.13;

/// @notice forge init's Counter, with an event and an owner-only reset.
contract Counter {
    uint256 public number;
    address public immutable owner;

    event NumberSet(uint256 number);

    constructor() {
        owner = msg.sender;
    }

    function setNumber(uint256 newNumber) public {
        number = newNumber;
        emit NumberSet(newNumber);
    }

    function increment() public {
        number++;
        emit NumberSet(number);
    }

    function reset() public {
        require(msg.sender == owner, "Counter: not the owner");
        number = 0;
        emit NumberSet(0);
    }
}
