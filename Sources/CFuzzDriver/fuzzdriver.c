#include "fuzzdriver.h"

extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) __attribute__((weak));

int pv_fuzzer_linked(void) { return LLVMFuzzerRunDriver != 0; }

int pv_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
