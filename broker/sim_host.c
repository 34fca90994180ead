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
#include "sim.h"

/*
 * The context's status in *status, and s's capture in *cap.  A context
 * that failed runs no host function (its error is the call's); it still
 * runs a callback, given the error.
 */
static CUresult host_begin(CUstream s, bool callback, struct sim_capture **cap, CUresult *status)
{
	CUresult r;

	*cap = NULL;
	if (!sim.cur || (sim.cur->primary && sim.cur->refs <= 0))
		return CUDA_ERROR_INVALID_CONTEXT;
	*status = sim.cur->sticky;
	if (*status && !callback)
		return *status;
	r = sim_stream_work(s, cap);
	if (!r && *cap && callback) {
		(*cap)->invalidated = true;
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	return r;
}

CUresult sim_cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data)
{
	struct sim_op op = { .kind = OP_HOST, .host = fn, .host_data = data };
	struct sim_capture *cap;
	CUresult status, r;

	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	r = host_begin(s, false, &cap, &status);
	if (r)
		return r;
	if (cap)
		return sim_capture_op(cap, s, &op);
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
	CUresult status = CUDA_SUCCESS, r;
	struct sim_capture *cap;

	if (!cb || flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = host_begin(s, true, &cap, &status);
	if (r)
		return r;
	cb(s, status, data);
	return CUDA_SUCCESS;
}
