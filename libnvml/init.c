// SPDX-License-Identifier: MIT
/*
 * Gleam's libnvidia-ml.so.1: NVML on a machine whose GPUs are elsewhere.
 * The GPUs it shows are those a CUDA program started here now would see
 * through Gleam (as a container given one GPU shows that one), with what
 * their server's NVML last said of them; the client gleamd answers over
 * its local socket (GLEAM_CTL_GPUS), and is asked again when an answer is
 * older than half a second.  Initialisation, the snapshot, and the
 * system-wide calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "nvml_gleam.h"
#include "util.h"

#define REFRESH_NS	(500 * 1000 * 1000ull)

struct gnvml gn = { .lock = PTHREAD_MUTEX_INITIALIZER };

nvmlReturn_t gn_unsupported(const char *fn, bool *said)
{
	if (!__atomic_exchange_n(said, true, __ATOMIC_RELAXED))
		gl_err("%s: not supported through Gleam (NVML_ERROR_NOT_SUPPORTED)", fn);
	return NVML_ERROR_NOT_SUPPORTED;
}

/* How this process's CUDA sessions would come in: as libcuda.so.1 chooses. */
static void via_of(char *buf, size_t len)
{
	const char *t = getenv("GLEAM_TRANSPORT");

	snprintf(buf, len, "socket");
	if (t && !strcmp(t, "socket"))
		return;
	for (int i = 0; i < 64; i++) {
		char node[32];

		snprintf(node, sizeof(node), "/dev/vgpu%d", i);
		if (!access(node, R_OK | W_OK)) {
			snprintf(buf, len, "vgpu%d", i);
			return;
		}
	}
}

/* One GLEAM_CTL_GPUS exchange with the client gleamd; the answer in buf, its length. */
static ssize_t ask_gleamd(char *buf, size_t cap)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_CONTROL };
	struct gleam_ctl_req req = { .op = GLEAM_CTL_GPUS };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	char via[16];
	ssize_t n;
	int fd;

	if (gl_local_socket_path(sa.sun_path, sizeof(sa.sun_path)))
		return -ENAMETOOLONG;
	via_of(via, sizeof(via));
	snprintf(req.arg, sizeof(req.arg), "%s %.63s", via, program_invocation_short_name);
	snprintf(h.program, sizeof(h.program), "nvml");
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, &h, sizeof(h), MSG_NOSIGNAL) != sizeof(h) ||
	    send(fd, &req, sizeof(req), MSG_NOSIGNAL) != sizeof(req)) {
		n = -errno;
		close(fd);
		return n ? n : -EIO;
	}
	n = recv(fd, buf, cap, 0);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* The answer checked and kept; -EPROTO when it does not add up. */
static int take_answer(const char *buf, size_t n)
{
	struct gleam_ctl_gpus h;
	const struct gleam_ctl_gpu *g;

	if (n < sizeof(h))
		return -EPROTO;
	memcpy(&h, buf, sizeof(h));
	if (h.magic != GLEAM_LOCAL_MAGIC || h.ngpus > GDEV_MAX || h.nprocs > GLEAM_CTL_PROCS_MAX ||
	    n != sizeof(h) + h.ngpus * sizeof(*g) + h.nprocs * sizeof(gn.procs[0]))
		return -EPROTO;
	g = (const void *)(buf + sizeof(h));
	/* A device stays what it was: a program holds its handle. */
	if (gn.ndev && h.ngpus != gn.ndev)
		return 0;
	for (unsigned int i = 0; i < h.ngpus; i++) {
		struct gdev *d = &gn.dev[i];

		if (gn.ndev && memcmp(d->g.info.uuid, g[i].info.uuid, sizeof(d->g.info.uuid)))
			return 0;
		memcpy(&d->g, &g[i], sizeof(d->g));
		d->g.server[sizeof(d->g.server) - 1] = 0;
		d->g.backend[sizeof(d->g.backend) - 1] = 0;
		d->g.info.name[sizeof(d->g.info.name) - 1] = 0;
		d->g.nvml.driver_version[sizeof(d->g.nvml.driver_version) - 1] = 0;
		d->index = i;
	}
	gn.ndev = h.ngpus;
	gn.driver_version = h.driver_version;
	memcpy(gn.procs, g + h.ngpus, h.nprocs * sizeof(gn.procs[0]));
	gn.nprocs = h.nprocs;
	for (unsigned int i = 0; i < gn.nprocs; i++)
		gn.procs[i].program[sizeof(gn.procs[i].program) - 1] = 0;
	if (!h.ngpus) {
		h.why[sizeof(h.why) - 1] = 0;
		if (gn.debug || h.why[0])
			gl_info("no GPU through Gleam: %s", h.why[0] ? h.why : "none offered");
	}
	return 0;
}

/* Ask the client gleamd again; lock held.  0 or -errno (the last answer stays). */
static int fetch(void)
{
	static char buf[sizeof(struct gleam_ctl_gpus) + GDEV_MAX * sizeof(struct gleam_ctl_gpu) +
			GLEAM_CTL_PROCS_MAX * sizeof(struct gleam_ctl_proc) + 1];
	ssize_t n = ask_gleamd(buf, sizeof(buf));
	int err;

	if (n < 0)
		return (int)n;
	err = take_answer(buf, (size_t)n);
	if (!err)
		gn.fetched_ns = gl_now_ns();
	return err;
}

struct gdev *gn_dev(nvmlDevice_t d)
{
	if (!gn.inits || !gn_is_dev(d))
		return NULL;
	if (gl_now_ns() - gn.fetched_ns > REFRESH_NS)
		fetch();
	return d;
}

bool gn_is_dev(const void *p)
{
	const char *c = p, *base = (const char *)gn.dev;

	return c >= base && c < (const char *)(gn.dev + gn.ndev) &&
	       (size_t)(c - base) % sizeof(gn.dev[0]) == 0;
}

unsigned int gn_procs(const struct gdev *d, unsigned int *pids, const char **names,
		      unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < gn.nprocs && n < max; i++) {
		if (gn.procs[i].gpu != d->index)
			continue;
		pids[n] = gn.procs[i].pid;
		if (names)
			names[n] = gn.procs[i].program;
		n++;
	}
	return n;
}

static nvmlReturn_t init(void)
{
	char path[108];
	int err;

	pthread_mutex_lock(&gn.lock);
	gl_log_prefix = "libnvidia-ml(gleam)";
	gn.debug = gl_env_bool("GLEAM_NVML_DEBUG", false);
	if (gn.debug)
		gl_log_level = 2;
	err = fetch();
	if (err) {
		gl_local_socket_path(path, sizeof(path));
		gl_err("no client gleamd answers at %s: %s (gleam-run starts one)", path,
		       err == -EPROTO ? "it does not speak this protocol" : strerror(-err));
		pthread_mutex_unlock(&gn.lock);
		return NVML_ERROR_DRIVER_NOT_LOADED;
	}
	gn.inits++;
	gl_dbg("nvmlInit: %u GPU(s) through Gleam", gn.ndev);
	pthread_mutex_unlock(&gn.lock);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlInit_v2(void)
{
	return init();
}

nvmlReturn_t nvmlInit(void)
{
	return init();
}

nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
{
	return init();
}

nvmlReturn_t nvmlShutdown(void)
{
	nvmlReturn_t r = NVML_SUCCESS;

	pthread_mutex_lock(&gn.lock);
	if (gn.inits)
		gn.inits--;
	else
		r = NVML_ERROR_UNINITIALIZED;
	pthread_mutex_unlock(&gn.lock);
	return r;
}

const char *nvmlErrorString(nvmlReturn_t r)
{
	switch (r) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
	case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
	case NVML_ERROR_ALREADY_INITIALIZED: return "Already Initialized";
	case NVML_ERROR_NOT_FOUND: return "Not Found";
	case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
	case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
	case NVML_ERROR_TIMEOUT: return "Timeout";
	case NVML_ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
	case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
	case NVML_ERROR_MEMORY: return "Insufficient Memory";
	case NVML_ERROR_NO_DATA: return "No data";
	case NVML_ERROR_ARGUMENT_VERSION_MISMATCH: return "Argument Version Mismatch";
	default: return "Unknown Error";
	}
}

/* Copy s into buf of len bytes, as NVML does: INSUFFICIENT_SIZE when it does not fit. */
nvmlReturn_t gn_str(char *buf, unsigned int len, const char *s)
{
	if (!buf)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (strlen(s) + 1 > len)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(buf, s, strlen(s) + 1);
	return NVML_SUCCESS;
}

/* The driver version of the first GPU whose server's NVML said it. */
static const char *driver_string(void)
{
	for (unsigned int i = 0; i < gn.ndev; i++)
		if (gn.dev[i].g.nvml.flags & GLEAM_NVML_F_DRIVER)
			return gn.dev[i].g.nvml.driver_version;
	return NULL;
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
	nvmlReturn_t r;
	const char *v;

	pthread_mutex_lock(&gn.lock);
	v = gn.inits ? driver_string() : NULL;
	r = !gn.inits ? NVML_ERROR_UNINITIALIZED : v ? gn_str(version, length, v) :
	    GN_UNSUPPORTED("nvmlSystemGetDriverVersion");
	pthread_mutex_unlock(&gn.lock);
	return r;
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
	char buf[64];
	nvmlReturn_t r;
	const char *v;

	pthread_mutex_lock(&gn.lock);
	v = gn.inits ? driver_string() : NULL;
	/* NVML's version is CUDA's major beside the driver's: "13.580.159". */
	if (v)
		snprintf(buf, sizeof(buf), "%d.%s", gn.driver_version / 1000, v);
	r = !gn.inits ? NVML_ERROR_UNINITIALIZED : v ? gn_str(version, length, buf) :
	    GN_UNSUPPORTED("nvmlSystemGetNVMLVersion");
	pthread_mutex_unlock(&gn.lock);
	return r;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v)
{
	nvmlReturn_t r = NVML_SUCCESS;

	if (!v)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&gn.lock);
	if (!gn.inits)
		r = NVML_ERROR_UNINITIALIZED;
	else if (!gn.driver_version)
		r = NVML_ERROR_NOT_SUPPORTED;
	else
		*v = gn.driver_version;
	pthread_mutex_unlock(&gn.lock);
	return r;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v)
{
	return nvmlSystemGetCudaDriverVersion(v);
}

/* Processes are this machine's: their names are read here, as NVML reads them there. */
nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd;

	if (!name || !length)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? NVML_ERROR_NOT_FOUND : NVML_ERROR_NO_PERMISSION;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NVML_ERROR_NOT_FOUND;
	buf[n] = 0;
	/* The program, as NVML gives it: the first word of its command line, cut to fit. */
	snprintf(name, length, "%s", buf);
	return NVML_SUCCESS;
}

/*
 * Event sets.  A GPU elsewhere sends no events through Gleam (XID errors,
 * clock changes, power events): a set can be made, waited on (it times out,
 * as an idle GPU's does) and freed, but registering a device for events
 * says NVML_ERROR_NOT_SUPPORTED, as NVIDIA's library does for a GPU that
 * does not report them.  nvidia-smi makes a set before it lists the GPUs,
 * and gives up on the whole view where it cannot.
 */
struct gn_event_set {
	unsigned int magic;
};

#define GN_EVENT_SET_MAGIC	0x45564e54u

nvmlReturn_t nvmlEventSetCreate(void **set)
{
	struct gn_event_set *s;

	if (!set)
		return NVML_ERROR_INVALID_ARGUMENT;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NVML_ERROR_MEMORY;
	s->magic = GN_EVENT_SET_MAGIC;
	*set = s;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetFree(void *set)
{
	struct gn_event_set *s = set;

	if (!s || s->magic != GN_EVENT_SET_MAGIC)
		return NVML_ERROR_INVALID_ARGUMENT;
	s->magic = 0;
	free(s);
	return NVML_SUCCESS;
}

static nvmlReturn_t event_wait(void *set, void *data, unsigned int ms)
{
	const struct gn_event_set *s = set;

	if (!s || s->magic != GN_EVENT_SET_MAGIC || !data)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (ms)
		usleep(ms * 1000u < 1000000u ? ms * 1000u : 999999u);
	return NVML_ERROR_TIMEOUT;
}

nvmlReturn_t nvmlEventSetWait(void *set, void *data, unsigned int ms)
{
	return event_wait(set, data, ms);
}

nvmlReturn_t nvmlEventSetWait_v2(void *set, void *data, unsigned int ms)
{
	return event_wait(set, data, ms);
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long types, void *set)
{
	const struct gn_event_set *s = set;

	if (!device || !s || s->magic != GN_EVENT_SET_MAGIC)
		return NVML_ERROR_INVALID_ARGUMENT;
	(void)types;
	return NVML_ERROR_NOT_SUPPORTED;
}
