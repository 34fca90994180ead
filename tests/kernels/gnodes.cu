// SPDX-License-Identifier: MIT
// Kernels that set the condition of a graph's conditional node
// (tests/programs/gnodes.c).  broker/sim_kernels.c mirrors each of them;
// keep the two in step.

// One thread counts in *counter; the condition stays set while the count
// is below limit (a while node's body).
extern "C" __global__ void cond_count(cudaGraphConditionalHandle h, unsigned int *counter,
				      unsigned int limit)
{
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		unsigned int c = *counter + 1;

		*counter = c;
		cudaGraphSetConditional(h, c < limit);
	}
}

// The condition becomes value (an if or switch node's).
extern "C" __global__ void cond_set(cudaGraphConditionalHandle h, unsigned int value)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cudaGraphSetConditional(h, value);
}
