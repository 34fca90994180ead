/* SPDX-License-Identifier: MIT */
/*
 * How busy each GPU is, from NVIDIA's management library (NVML), read in
 * a process of its own: the daemon never loads NVIDIA's libraries itself.
 */
#ifndef GLEAM_NVML_H
#define GLEAM_NVML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gleam_wire.h"

/*
 * Fork the sampler: once a second it reads each GPU's utilisation into
 * the usage table (wk_gpu_util()).  Its pid, or 0 when there is none; a
 * sampler that finds no NVML says so once and exits 0.
 */
pid_t nvml_start(const struct gleam_gpu_info *gpus, unsigned int n);

/*
 * What the sampler last read of GPU gpu for the clients' libnvidia-ml.so.1
 * (GLEAM_WIRE_F_NVML); all zero (no flags) without NVML, as on the sim.
 */
void nvml_read(unsigned int gpu, struct gleam_gpu_nvml *out);

/*
 * Whether this machine has an NVIDIA display or 3D controller on its PCI
 * bus, whatever its driver's state; its address in bdf when it has.
 */
bool nvidia_gpu_present(char *bdf, size_t len);

#endif /* GLEAM_NVML_H */
