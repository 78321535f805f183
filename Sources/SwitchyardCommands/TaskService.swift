import ServiceLifecycle

/// Runs a closure as a service that ends on graceful shutdown.
package struct TaskService: Service {
    let name: String
    let body: @Sendable () async throws -> Void

    /// A service named `name` that runs `body`.
    package init(name: String, body: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.body = body
    }

    package func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await body()
        }
    }
}
