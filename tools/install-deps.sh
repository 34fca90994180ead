#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian 12 packages Gleam builds and tests with (as root).
# The CUDA toolkit (cuda.h, nvcc) is expected at /usr/local/cuda.
set -eu
PKGS="build-essential pkg-config python3 liburing-dev libnl-3-dev libnl-route-3-dev
libnl-genl-3-dev check libssl-dev libzstd-dev linux-headers-amd64 linux-image-amd64
qemu-system-x86 busybox-static cpio kmod valgrind clang dkms"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-deps: missing packages:$missing (run as root)" >&2
		exit 1
	fi
	echo "install-deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi
if [ ! -x "${CUDA:-/usr/local/cuda}/bin/nvcc" ]; then
	echo "install-deps: no CUDA toolkit at ${CUDA:-/usr/local/cuda} (cuda.h and nvcc are needed)" >&2
	exit 1
fi
echo "install-deps: all packages present"
