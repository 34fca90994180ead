build/obj/common/ring.o: common/ring.c uapi/gleam_record.h common/ring.h \
 uapi/gleam_ring.h
uapi/gleam_record.h:
common/ring.h:
uapi/gleam_ring.h:
