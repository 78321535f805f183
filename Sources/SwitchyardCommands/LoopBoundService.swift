import ServiceLifecycle

/// A service whose task prefers an executor: the background workers run on one of the loops that drive
/// the database connections, as requests do, so each of their transactions runs where the worker already
/// is instead of hopping from the cooperative pool to a loop and back. (Their sleeps between looks still
/// go through the global executor's timer.)
package struct LoopBoundService: Service {
    let base: any Service
    let executor: @Sendable () -> (any TaskExecutor)?

    /// `base`, run on an executor from `executor` (nil: the cooperative pool).
    package init(_ base: any Service, executor: @escaping @Sendable () -> (any TaskExecutor)?) {
        self.base = base
        self.executor = executor
    }

    package func run() async throws {
        try await withTaskExecutorPreference(executor()) {
            try await base.run()
        }
    }
}
