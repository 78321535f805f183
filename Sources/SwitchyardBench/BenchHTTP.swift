import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwitchyardCommands

/// The HTTP client of `switchyard bench`: keep-alive connections, enough of them for the concurrency.
package struct BenchHTTP: Sendable {
    package let client: HTTPClient

    package init(connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, connections))
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    package func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends a request; the status is 0 when no answer came.
    package func send(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], json: Data? = nil) async
        -> (
            status: Int, body: Data
        )
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json))
        }
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 4 << 20)
            return (Int(response.status.code), Data(buffer: body))
        } catch {
            return (0, Data())
        }
    }

    /// A JSON body from a dictionary.
    package static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    /// The JSON object of a body, empty when it is not one.
    package static func object(_ body: Data) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:]
    }
}
