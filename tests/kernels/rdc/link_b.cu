// SPDX-License-Identifier: MIT
// The second input JIT-linked by tests/programs/jitlink.c: the function
// the first input's kernel calls.

extern "C" __device__ float link_op(float x)
{
	return x * 2.0f + 1.0f;
}
