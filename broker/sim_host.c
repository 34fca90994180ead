// SPDX-License-Identifier: MIT
/*
 * The sim backend's host functions and stream callbacks.  Everything
 * before them on their stream has completed when the sim replays them, as
 * all its work completes in order, so it calls them at once, in the
 * replay of their record; the worker's function (wk_host.c) then holds
 * this thread, which is the sim's whole GPU, until the program's function
 * has run in the program's process.  In a capture a host function becomes
 * an operation of the graph, called at each launch; a callback cannot be
 * captured (the driver refuses it and invalidates the capture).
 */
#include <stdbool.h>

#include "worker.h"

/* backend_sim.c: the context's status and the stream's capture. */
CUresult sim_host_begin(CUstream s, bool callback, void **cap, CUresult *status);
CUresult sim_host_capture(void *cap, CUstream s, void (*fn)(void *), void *data);

/* In a failed context a host function does not run: its error is the call's. */
CUresult sim_cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data)
{
	CUresult status;
	void *cap;
	CUresult r;

	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	r = sim_host_begin(s, false, &cap, &status);
	if (r)
		return r;
	if (cap)
		return sim_host_capture(cap, s, fn, data);
	fn(data);
	return CUDA_SUCCESS;
}

/*
 * A callback runs even in a failed context, given the error: on a GPU
 * it was queued before the fault was known, and the sim, which faults at
 * the launch, keeps that order.
 */
CUresult sim_cuStreamAddCallback(CUstream s, CUstreamCallback cb, void *data, unsigned int flags)
{
	CUresult status = CUDA_SUCCESS;
	void *cap;
	CUresult r;

	if (!cb || flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = sim_host_begin(s, true, &cap, &status);
	if (r)
		return r;
	cb(s, status, data);
	return CUDA_SUCCESS;
}
