// SPDX-License-Identifier: MIT
// C = A * B for square row-major n x n matrices, 16x16 tiles in shared
// memory.  Launch with 16x16x1 blocks and a grid of ceil(n/16) blocks in x
// (columns) and y (rows); any other block shape does nothing, so that the
// sim backend (broker/sim_kernels.c) can match it exactly.  Each element is
// a single running sum over k in ascending order.

#define TILE 16

extern "C" __global__ void matmul_tiled(const float *A, const float *B,
					float *C, int n)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty;
	int col = blockIdx.x * TILE + tx;
	float sum = 0.0f;

	if (blockDim.x != TILE || blockDim.y != TILE || blockDim.z != 1)
		return;

	for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
		int ka = t * TILE + tx;
		int kb = t * TILE + ty;

		As[ty][tx] = (row < n && ka < n) ? A[(size_t)row * n + ka] : 0.0f;
		Bs[ty][tx] = (kb < n && col < n) ? B[(size_t)kb * n + col] : 0.0f;
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			sum += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	if (row < n && col < n)
		C[(size_t)row * n + col] = sum;
}
