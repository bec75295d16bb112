package vm

// ErrorCodes is errorCodes for the tests of package vm_test.
var ErrorCodes = errorCodes
