/* SPDX-License-Identifier: MIT */
#ifndef GLEAM_UNIT_H
#define GLEAM_UNIT_H

#include <check.h>

Suite *ring_suite(void);
Suite *table_suite(void);
Suite *image_suite(void);
Suite *shim_suite(void);
Suite *export_suite(void);
Suite *config_suite(void);
Suite *chunkstore_suite(void);
Suite *cubin_suite(void);
Suite *util_suite(void);

#endif
