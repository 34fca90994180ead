// SPDX-License-Identifier: MIT
// Writes to *p; given an unmapped address it faults, and the context gets
// the sticky CUDA_ERROR_ILLEGAL_ADDRESS.
extern "C" __global__ void illegal_write(int *p)
{
	*p = 1;
}
