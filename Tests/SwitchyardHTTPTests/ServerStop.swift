import Hummingbird
import Logging
import ServiceLifecycle
import TestWaiting

/// A test server run as the service it is in production: stopped by a graceful shutdown (it stops
/// accepting, lets requests in flight finish and closes its connections), not by cancelling its task, which
/// can tear a connection's writer down in the middle of an answer.
struct ServerStop: Sendable {
    private let group: ServiceGroup
    private let finished: AsyncStream<Void>
    private let finish: AsyncStream<Void>.Continuation

    /// A server whose `run` serves until a graceful shutdown of the service group around it.
    init(_ run: @escaping @Sendable () async throws -> Void) {
        self.init(Served(body: run))
    }

    init(_ app: some Service) {
        group = ServiceGroup(
            configuration: .init(
                services: [app], logger: Logger(label: "test.server") { _ in SwiftLogNoOpLogHandler() }))
        (finished, finish) = AsyncStream.makeStream()
    }

    /// Runs the server until ``stop()``; meant for a task of the test's task group.
    func run() async throws {
        defer { finish.finish() }
        try await group.run()
    }

    /// Asks the server to shut down gracefully and waits until it has, or until `bound` passes (a hang
    /// guard: the caller cancels the task group afterwards either way).
    func stop(bound: Duration = .seconds(10)) async {
        await group.triggerGracefulShutdown()
        let finished = self.finished
        _ = try? await Deadline.within(bound, "the server's graceful stop") { for await _ in finished {} }
    }
}

/// A serving function as a service.
private struct Served: Service {
    let body: @Sendable () async throws -> Void
    func run() async throws { try await body() }
}
