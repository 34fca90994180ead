/* SPDX-License-Identifier: MIT */
/*
 * The sim backend's arrays, 2D and 3D copies and texture and surface
 * objects (sim_array.c), and what that file uses of the rest of the sim.
 */
#ifndef GLEAM_SIM_ARRAY_H
#define GLEAM_SIM_ARRAY_H

#include <stdint.h>

#include <cuda.h>

#include "sim_kernels.h"

/* The texture and surface limits of the sim's device (an H200's). */
void sim_array_attrs(int32_t *attr);
/* Kernels' texture fetches and surface accesses (struct sim_launch). */
int sim_tex_fetch(void *be, uint64_t obj, const struct sim_texcoord *c, void *out,
		  unsigned int size);
int sim_surf_access(void *be, uint64_t obj, int64_t x, int64_t y, int64_t z, void *buf,
		    unsigned int size, int write);

#endif /* GLEAM_SIM_ARRAY_H */
