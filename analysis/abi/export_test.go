package abi

// DefReadHook is defReadHook, for the tests of package abi_test.
var DefReadHook = &defReadHook
