import Glibc

/// A mutex with one condition variable (pthread_mutex_t + pthread_cond_t):
/// the engine's threads block on it while waiting for bytes, space, a new
/// stream or the end of a pause. `Synchronization.Mutex` has no condition.
package final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    /// Runs `body` with the mutex held.
    package func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// pthread_cond_wait: call with the mutex held (inside `locked`).
    package func wait() { pthread_cond_wait(cond, mutex) }

    /// pthread_cond_timedwait for at most `seconds`; call with the mutex held.
    package func wait(seconds: Double) {
        var deadline = SystemClock.monotonicDeadline(after: seconds)
        pthread_cond_timedwait(cond, mutex, &deadline)
    }

    /// pthread_cond_broadcast: wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(cond) }
}

/// Starts a detached-from-Swift POSIX thread running `body` (pthread_create).
/// - Returns: the thread handle, for `pthread_join`.
package func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
    var tid = pthread_t()
    let arg = Unmanaged.passRetained(Box(body)).toOpaque()
    let rc = pthread_create(
        &tid, nil,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, arg)
    precondition(rc == 0, "pthread_create failed: \(rc)")
    return tid
}
