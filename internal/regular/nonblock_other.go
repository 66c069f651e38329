//go:build !unix

package regular

// nonblock is 0 where the system has no FIFOs to wait on.
const nonblock = 0
