build/obj/libcuda-shim/core.o: libcuda-shim/core.c libcuda-shim/shim.h \
 /usr/local/cuda/include/cuda.h build/gen/gleam_api_gen.h \
 uapi/gleam_record.h common/ring.h uapi/gleam_ring.h common/util.h
libcuda-shim/shim.h:
/usr/local/cuda/include/cuda.h:
build/gen/gleam_api_gen.h:
uapi/gleam_record.h:
common/ring.h:
uapi/gleam_ring.h:
common/util.h:
