import Foundation
import HTTPTypes
import Hummingbird

/// Gives every request an id that the caller and the operator can quote: the caller's `X-Request-Id`
/// when it is a sensible token (1 to 128 characters of letters, digits and `-_.:`), a fresh one
/// otherwise. The id is echoed in the response's `X-Request-Id` (error responses included) and set as
/// `request.id` on the request's logger and as ``AppContext/requestID``, which error bodies quote.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = AppContext

    /// The header carrying the id.
    static let header = HTTPField.Name("X-Request-Id")!

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        let id = Self.accepted(request.headers[Self.header]) ?? Self.make()
        var context = context
        context.logger[metadataKey: "request.id"] = "\(id)"
        context.requestID = id
        var response = try await next(request, context)
        response.headers[Self.header] = id
        return response
    }

    /// The caller's id when it is a sensible token, else `nil`.
    static func accepted(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count) else { return nil }
        let allowed = value.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
        return allowed ? value : nil
    }

    /// A fresh id: 32 lowercase hex digits, from the bytes of a random UUID (one system call).
    static func make() -> String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: UUID.random().uuid) { bytes in
            String(unsafeUninitializedCapacity: 32) { buffer in
                for (index, byte) in bytes.enumerated() {
                    buffer[2 * index] = digits.utf8Start[Int(byte >> 4)]
                    buffer[2 * index + 1] = digits.utf8Start[Int(byte & 15)]
                }
                return 32
            }
        }
    }
}
