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

    /// A fresh id: 32 lowercase hex digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for half in 0..<2 {
                var value = generator.next() as UInt64
                for index in (0..<16).reversed() {
                    buffer[half * 16 + index] = digits.utf8Start[Int(value & 15)]
                    value >>= 4
                }
            }
            return 32
        }
    }
}
