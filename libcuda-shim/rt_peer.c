// SPDX-License-Identifier: MIT
/*
 * What the CUDA runtime (cudart) asks beyond the rest of the shim, devices
 * together: peer queries and access, and unified copies.
 */
#include <stddef.h>
#include <stdlib.h>

#include "export.h"
#include "cudarules.h"
#include "shim.h"
#include "util.h"
#include "entry.h"

/* ---- peers ---- */

/*
 * Whether two GPUs of the server reach each other never changes: asked
 * once per pair, in no particular context (the driver needs none), and
 * kept.  A device and itself are answered here, as the driver does.
 */
static int8_t peer_access[GLEAM_GPUS_MAX_LOCAL][GLEAM_GPUS_MAX_LOCAL];	/* 0: not asked */

static CUresult ask_devices(unsigned int fn, CUdevice dev, const void *args, size_t len, void *out,
			    size_t olen)
{
	struct shim_ctx *cur = shim_current();
	struct shim_call c = { .fn = fn, .args = args, .args_len = len, .out = out,
			       .out_len = olen, .force_sync = true, .dev1 = dev + 1,
			       .ctx = cur ? cur->o.id : 0 };
	CUresult r = shim_conn_error();

	return r ? r : shim_call(&c);
}

/* Two devices of the process and where the answer goes, as the driver checks them. */
static CUresult pair_check(CUdevice a, CUdevice b, const int *out)
{
	CUresult r = shim_dev_check(a);

	if (!r)
		r = shim_dev_check(b);
	if (!r && !out)
		r = CUDA_ERROR_INVALID_VALUE;
	return r;
}

CUresult shim_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	struct gl_a_cuDeviceCanAccessPeer a = { .dev = dev, .peerDev = peer };
	struct gl_r_cuDeviceCanAccessPeer o = { 0 };
	int8_t v;
	CUresult r = pair_check(dev, peer, can);

	if (r)
		return r;
	/* Itself, or a GPU of another server: no direct access, truthfully. */
	if (dev == peer || shim_span_apart(dev, peer)) {
		*can = 0;
		return CUDA_SUCCESS;
	}
	v = __atomic_load_n(&peer_access[dev][peer], __ATOMIC_RELAXED);
	if (!v) {
		r = ask_devices(GL_FN_cuDeviceCanAccessPeer, dev, &a, sizeof(a), &o, sizeof(o));
		if (r)
			return r;
		v = o.canAccessPeer ? 1 : -1;
		__atomic_store_n(&peer_access[dev][peer], v, __ATOMIC_RELAXED);
	}
	*can = v > 0;
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice src,
				      CUdevice dst)
{
	struct gl_a_cuDeviceGetP2PAttribute a = { .attrib = attrib, .srcDevice = src,
						  .dstDevice = dst };
	struct gl_r_cuDeviceGetP2PAttribute o = { 0 };
	CUresult r = pair_check(src, dst, value);

	if (r)
		return r;
	if (src == dst)
		return CUDA_ERROR_INVALID_DEVICE;
	/* GPUs of two servers: no access, no atomics, no arrays, no rank. */
	if (shim_span_apart(src, dst)) {
		switch (attrib) {
		case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
		case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
		case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
		case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
		case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
			*value = 0;
			return CUDA_SUCCESS;
		default:
			return CUDA_ERROR_INVALID_VALUE;
		}
	}
	r = ask_devices(GL_FN_cuDeviceGetP2PAttribute, src, &a, sizeof(a), &o, sizeof(o));
	if (!r)
		*value = (int)o.value;
	return r;
}

/*
 * Peer access: which contexts may reach which peers' memory is kept here,
 * so that what the driver refuses at the call (a peer it cannot reach,
 * access enabled twice or never) is refused here too, and the record goes
 * without a wait.  Ids are never reused: a pair of a destroyed context is
 * never asked about again.
 */
struct peer_pair {
	uint64_t ctx, peer;
};

static struct {
	pthread_mutex_t lock;
	struct peer_pair *p;
	size_t n, cap;
} peers = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The index of (ctx, peer) among the enabled pairs, or -1; lock held. */
static long peer_find(uint64_t ctx, uint64_t peer)
{
	for (size_t i = 0; i < peers.n; i++)
		if (peers.p[i].ctx == ctx && peers.p[i].peer == peer)
			return (long)i;
	return -1;
}

/* The current context and the peer's, both live and different, or the driver's error. */
static CUresult peer_args(CUcontext peer_ctx, struct shim_ctx **cur, struct shim_ctx **peer)
{
	struct shim_obj *o;
	CUresult r = shim_require_ctx(cur);

	if (r)
		return r;
	r = shim_obj_get(GL_H_CTX, peer_ctx, &o);
	if (r)
		return CUDA_ERROR_INVALID_CONTEXT;
	*peer = (struct shim_ctx *)o;
	return *peer == *cur ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

CUresult shim_cuCtxEnablePeerAccess(CUcontext peer_ctx, unsigned int flags)
{
	struct gl_a_cuCtxEnablePeerAccess a = { .Flags = flags };
	struct shim_ctx *cur, *peer;
	int can = 0;
	CUresult r = peer_args(peer_ctx, &cur, &peer);

	if (r)
		return r;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (cur->dev == peer->dev)
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	r = shim_cuDeviceCanAccessPeer(&can, cur->dev, peer->dev);
	if (r)
		return r;
	if (!can)
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	pthread_mutex_lock(&peers.lock);
	if (peer_find(cur->o.id, peer->o.id) >= 0) {
		pthread_mutex_unlock(&peers.lock);
		return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	}
	if (gl_grow((void **)&peers.p, peers.n, &peers.cap, sizeof(*peers.p), 16)) {
		pthread_mutex_unlock(&peers.lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	peers.p[peers.n++] = (struct peer_pair){ cur->o.id, peer->o.id };
	pthread_mutex_unlock(&peers.lock);
	a.peerContext = peer->o.id;
	return shim_send(GL_FN_cuCtxEnablePeerAccess, &a, sizeof(a), NULL, 0);
}

CUresult shim_cuCtxDisablePeerAccess(CUcontext peer_ctx)
{
	struct gl_a_cuCtxDisablePeerAccess a = { 0 };
	struct shim_ctx *cur, *peer;
	CUresult r = peer_args(peer_ctx, &cur, &peer);
	long i;

	if (r)
		return r;
	pthread_mutex_lock(&peers.lock);
	i = peer_find(cur->o.id, peer->o.id);
	if (i >= 0)
		peers.p[i] = peers.p[--peers.n];
	pthread_mutex_unlock(&peers.lock);
	if (i < 0)
		return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	a.peerContext = peer->o.id;
	return shim_send(GL_FN_cuCtxDisablePeerAccess, &a, sizeof(a), NULL, 0);
}

/* ---- unified copies ---- */

/*
 * cuMemcpy and cuMemcpyAsync infer the direction from the addresses: the
 * shim knows every device allocation, and anything else is host memory.
 * (A host address that happened to equal a server's device address would
 * be taken for device memory; kernels' pointer arguments rely on the same
 * separation.)
 */
static bool is_device(CUdeviceptr p)
{
	return !shim_cuMemGetAddressRange(NULL, NULL, p);
}

/* A unified copy between two host addresses, done here. */
static CUresult host_copy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	if (n && (!dst || !src))
		return CUDA_ERROR_INVALID_VALUE;
	memmove((void *)dst, (const void *)src, n);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n, int per_thread)
{
	bool d = is_device(dst), s = is_device(src);
	struct shim_ctx *c;
	CUresult r;

	if (d && s)
		return per_thread ? cuMemcpyDtoD_v2_ptds(dst, src, n) : cuMemcpyDtoD_v2(dst, src, n);
	if (d)
		return shim_cuMemcpyHtoD(dst, (const void *)src, n, per_thread);
	if (s)
		return shim_cuMemcpyDtoH((void *)dst, src, n, per_thread);
	r = shim_require_ctx(&c);
	/* Host to host: every earlier copy into host memory has completed. */
	return r ? r : host_copy(dst, src, n);
}

CUresult shim_cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream,
			    int per_thread)
{
	bool d = is_device(dst), s = is_device(src);
	struct shim_ctx *c;
	__u64 sid;
	CUresult r;

	if (d && s)
		return per_thread ? cuMemcpyDtoDAsync_v2_ptsz(dst, src, n, stream) :
				    cuMemcpyDtoDAsync_v2(dst, src, n, stream);
	if (d)
		return shim_cuMemcpyHtoDAsync(dst, (const void *)src, n, stream, per_thread);
	if (s)
		return shim_cuMemcpyDtoHAsync((void *)dst, src, n, stream, per_thread);
	/* Host to host, in stream order: after what the stream holds. */
	r = shim_require_ctx(&c);
	if (!r)
		r = shim_stream_id(stream, per_thread, &sid);
	if (!r)
		r = shim_capture_host_copy(GL_FN_cuMemcpyAsync, c->o.id);
	shim_call_stream = 0;
	if (r)
		return r;
	r = per_thread ? cuStreamSynchronize_ptsz(stream) : cuStreamSynchronize(stream);
	return r ? r : host_copy(dst, src, n);
}

/*
 * An event recorded with flags: the default is cuEventRecord's record.
 * CU_EVENT_RECORD_EXTERNAL (an event record node in a capture, for work
 * outside the graph to wait on) is not supported; the driver refuses it
 * outside a capture, and so does the shim.
 */
CUresult shim_cuEventRecordWithFlags(CUevent ev, CUstream s, unsigned int flags, int per_thread)
{
	if (flags == CU_EVENT_RECORD_DEFAULT)
		return per_thread ? cuEventRecord_ptsz(ev, s) : cuEventRecord(ev, s);
	if (flags != CU_EVENT_RECORD_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	if (!atomic_load(&shim_captures))
		return CUDA_ERROR_INVALID_VALUE;
	return SHIM_REFUSE("cuEventRecordWithFlags: CU_EVENT_RECORD_EXTERNAL is not supported by "
			   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
}
