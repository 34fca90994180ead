build/obj/libcuda-shim/transport.o: libcuda-shim/transport.c \
 uapi/gleam_local.h libcuda-shim/shim.h /usr/local/cuda/include/cuda.h \
 build/gen/gleam_api_gen.h uapi/gleam_record.h common/ring.h \
 uapi/gleam_ring.h common/util.h
uapi/gleam_local.h:
libcuda-shim/shim.h:
/usr/local/cuda/include/cuda.h:
build/gen/gleam_api_gen.h:
uapi/gleam_record.h:
common/ring.h:
uapi/gleam_ring.h:
common/util.h:
