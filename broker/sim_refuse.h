/* SPDX-License-Identifier: MIT */
/*
 * What the sim backend does not model: refused with
 * CUDA_ERROR_NOT_SUPPORTED, and said once for each place that refuses.
 */
#ifndef GLEAM_SIM_REFUSE_H
#define GLEAM_SIM_REFUSE_H

#include <stdbool.h>
#include <stdio.h>

#include <cuda.h>

static inline CUresult sim_said(const char *what)
{
	fprintf(stderr, "gleamd: sim: %s: not modelled by the sim backend\n", what);
	return CUDA_ERROR_NOT_SUPPORTED;
}

#define SIM_REFUSE(what) \
	({ \
		static bool said_; \
		said_ ? CUDA_ERROR_NOT_SUPPORTED : (said_ = true, sim_said(what)); \
	})

#endif /* GLEAM_SIM_REFUSE_H */
