build/obj/gen/errors_gen.o: build/gen/errors_gen.c libcuda-shim/shim.h \
 /usr/local/cuda/include/cuda.h build/gen/gleam_api_gen.h \
 uapi/gleam_record.h common/ring.h uapi/gleam_ring.h
libcuda-shim/shim.h:
/usr/local/cuda/include/cuda.h:
build/gen/gleam_api_gen.h:
uapi/gleam_record.h:
common/ring.h:
uapi/gleam_ring.h:
