import Foundation
import ProviderSandbox
import Testing

@Suite struct SandboxServerTests {
    @Test func runReportsTheBoundPortAndReturnsWhenCancelled() async throws {
        let server = SandboxServer(configuration: SandboxConfiguration(), logger: quietLogger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            try await server.run(port: 0) { port in
                continuation.yield(port)
                continuation.finish()
            }
        }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        #expect(port > 0)
        let reply = try await send(.get, "http://127.0.0.1:\(port)/_sandbox/citcon/ledger")
        #expect(reply.status == 200)
        #expect((reply.json as? [Any])?.isEmpty == true)
        let unknown = try await send(.get, "http://127.0.0.1:\(port)/citcon/v1/nothing-here")
        #expect(unknown.status == 404)

        task.cancel()
        try await task.value
        // The listener is closed: the client only sees refused connections until its deadline.
        await #expect(throws: (any Error).self) {
            _ = try await send(.get, "http://127.0.0.1:\(port)/_sandbox/citcon/ledger", timeout: .milliseconds(300))
        }
    }
}
