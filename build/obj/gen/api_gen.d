build/obj/gen/api_gen.o: build/gen/api_gen.c build/gen/gleam_api_gen.h
build/gen/gleam_api_gen.h:
