import CMalloc

/// The C heap as glibc's malloc keeps it.
public enum Heap {
    /// Gives freed heap pages back to the kernel (glibc's `malloc_trim(0)`).
    /// glibc keeps what a freed large reply used (its mmap threshold grows
    /// after such frees, so later ones come from the heap and stay
    /// resident); call this after one, not on every free: it walks the heap.
    public static func releaseFreePages() {
        _ = malloc_trim(0)
    }
}
