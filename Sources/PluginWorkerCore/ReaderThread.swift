#if canImport(Glibc)
    import Glibc
#endif

/// The worker's socket reader: one detached POSIX thread (the worker links no Foundation, so no `Thread`).
enum ReaderThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread; returns the thread.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box)
        precondition(status == 0, "the worker could not start its reader thread")
        pthread_detach(thread)
        return thread
    }
}
