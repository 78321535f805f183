import Foundation
import Hummingbird
import Logging
import NIOCore
import TestWaiting

/// A minimal OTLP/HTTP (JSON encoding) trace receiver: records every span exported to `/v1/traces`.
final class OTLPReceiver: Sendable {
    /// One received span.
    struct Span: Sendable {
        var traceId: String
        var name: String
        var attributes: [String: String]
    }

    private let spans: LockedState<[Span]>
    /// Told of every export, so waits wake on it.
    private let changes: Changes
    /// The base URL to export to (OTEL_EXPORTER_OTLP_ENDPOINT).
    let endpoint: String

    private init(endpoint: String, spans: LockedState<[Span]>, changes: Changes) {
        self.endpoint = endpoint
        self.spans = spans
        self.changes = changes
    }

    /// Starts a receiver on a free loopback port, runs `body`, stops it.
    static func with<T: Sendable>(_ body: (OTLPReceiver) async throws -> T) async throws -> T {
        let spans = LockedState<[Span]>([])
        let changes = Changes()
        let router = Router()
        router.post("v1/traces") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 16 << 20)
            let found = Self.spans(in: Data(buffer: buffer))
            spans.withLock { $0.append(contentsOf: found) }
            changes.notify()
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "otlp-receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.run() }
        defer { task.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("OTLP receiver did not start") }
        return try await body(OTLPReceiver(endpoint: "http://127.0.0.1:\(port)", spans: spans, changes: changes))
    }

    /// Every span received so far.
    var received: [Span] { spans.withLock { $0 } }

    /// Waits (bounded) until the spans of trace `traceId` satisfy `condition`; returns them.
    func wait(trace traceId: String, seconds: Double = 30, until condition: @escaping @Sendable ([Span]) -> Bool)
        async throws -> [Span]
    {
        let satisfied = LockedState<[Span]?>(nil)
        try? await changes.wait("spans of trace \(traceId)", within: .seconds(seconds)) { [self] in
            let mine = received.filter { $0.traceId == traceId }
            guard condition(mine) else { return false }
            satisfied.withLock { $0 = mine }
            return true
        }
        return satisfied.withLock { $0 } ?? received.filter { $0.traceId == traceId }
    }

    private static func spans(in body: Data) -> [Span] {
        guard let root = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return [] }
        var found: [Span] = []
        for resource in root["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any]
                        else { continue }
                        attributes[key] = value.values.first.map { "\($0)" }
                    }
                    found.append(
                        Span(
                            traceId: Self.hex(span["traceId"] as? String ?? ""), name: span["name"] as? String ?? "",
                            attributes: attributes))
                }
            }
        }
        return found
    }

    /// A trace id as lowercase hex, whether the exporter wrote hex or protobuf-JSON base64.
    static func hex(_ value: String) -> String {
        if value.count == 32, value.allSatisfy(\.isHexDigit) { return value.lowercased() }
        guard let bytes = Data(base64Encoded: value) else { return value }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
