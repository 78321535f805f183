import Foundation
import Hummingbird

/// Small helpers shared by the emulators' route handlers.
enum SandboxHTTP {
    /// Largest request body any emulator reads.
    static let maxBodySize = 1 << 20

    /// A JSON response with `body` encoded by `encoder`.
    static func json(
        _ body: some Encodable,
        status: HTTPResponse.Status = .ok,
        encoder: JSONEncoder = adminEncoder
    ) -> Response {
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return raw(Array(data), status: status, contentType: "application/json")
    }

    /// A response carrying `bytes` verbatim.
    static func raw(_ bytes: [UInt8], status: HTTPResponse.Status, contentType: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// A plain-text response.
    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        raw(Array(text.utf8), status: status, contentType: "text/plain; charset=utf-8")
    }

    /// The whole request body (at most ``maxBodySize`` bytes).
    static func body(of request: Request) async throws -> [UInt8] {
        var request = request
        let buffer = try await request.collectBody(upTo: maxBodySize)
        return Array(buffer.readableBytesView)
    }

    /// The value of a `Bearer` authorization header, if any.
    static func bearer(of request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let value = parts[1].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// A query parameter of the request, if present and not empty.
    static func query(_ name: String, of request: Request) -> String? {
        guard let value = request.uri.queryParameters[name[...]], !value.isEmpty else { return nil }
        return String(value)
    }

    /// The encoder of the admin surface: camelCase keys, ISO-8601 dates, sorted keys.
    static let adminEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// The decoder of the admin surface.
    static let adminDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
