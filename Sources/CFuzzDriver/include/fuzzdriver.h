// libFuzzer's driver, when the binary is linked with it (swiftc
// -sanitize=fuzzer); a weak reference, so ordinary builds link too.
#ifndef PREVIEWD_FUZZDRIVER_H
#define PREVIEWD_FUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// Whether libFuzzer is linked in.
int pv_fuzzer_linked(void);
/// LLVMFuzzerRunDriver: parses libFuzzer's flags from argv and fuzzes `callback`.
int pv_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
