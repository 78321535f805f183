import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ProviderKit
import SwitchyardCore

/// Reading and writing JSON bodies with Switchyard's rules: a size limit, strict types, and bad input
/// reported as a 4xx with a stable code naming the field.
public enum JSONIO {
    /// The encoder of every answer: ISO 8601 dates, a type's keys in its order, a dictionary's sorted,
    /// written in one pass.
    static let encoder = CompactJSONEncoder(dates: .iso8601)

    /// Reads the whole body, refusing more than `limit` bytes with 413 `body_too_large`.
    static func body(_ request: Request, limit: Int) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError(.bodyTooLarge, "the request body exceeds \(limit) bytes")
        }
    }

    /// Reads the whole body within `limit` bytes (as ``body(_:limit:)``) as the JSON body of a request
    /// answered in `context`'s API version.
    static func body(_ request: Request, _ context: AppContext, limit: Int) async throws -> JSONBody {
        JSONBody(try await body(request, limit: limit), version: context.apiVersion)
    }

    /// Decodes `data` as a ``JSONBody`` of a request answered in `version` would.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, version: APIVersion? = nil) throws -> T {
        try JSONBody(data, version: version).decode(type)
    }

    /// Reads the body of an operation that takes no fields, within `limit` bytes, and checks it as
    /// ``JSONBody/noFields()`` does: for the body-less operations that do not go through the
    /// `Idempotency-Key` gate.
    static func noFields(_ request: Request, _ context: AppContext, limit: Int) async throws {
        try await body(request, context, limit: limit).noFields()
    }

    /// A ``DecodingError`` as the 400 that names its field.
    static func describe(_ error: DecodingError) -> APIError {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        func code(for path: [any CodingKey]) -> ErrorCode {
            if path.first?.stringValue == "metadata" { return .invalidMetadata }
            switch path.last?.stringValue {
            case "amount", "min_amount", "max_amount": return .invalidAmount
            case "currency": return .invalidCurrency
            case "country": return .invalidCountry
            case "method": return .invalidMethod
            default: return .invalidField
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let path = field(context.codingPath + [key])
            return APIError(
                .missingField, "the field '\(path)' is required",
                param: StrictJSON.param(context.codingPath + [key]))
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return APIError(
                code(for: context.codingPath), "the field '\(field(context.codingPath))' has the wrong type",
                param: StrictJSON.param(context.codingPath))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return APIError(.invalidJSON, "the body is not valid JSON")
            }
            return APIError(
                code(for: context.codingPath), "the field '\(field(context.codingPath))' is invalid",
                param: StrictJSON.param(context.codingPath))
        @unknown default:
            return APIError(.invalidJSON, "the body could not be read")
        }
    }

    /// A JSON response.
    static func response(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) -> Response
    {
        let data =
            (try? encoder.encode(value))
            ?? Data(#"{"error":{"code":"internal_error","message":"encoding failed"}}"#.utf8)
        return raw(status, data, headers: headers)
    }

    /// A response with an already-encoded JSON body.
    static func raw(_ status: HTTPResponse.Status, _ data: Data, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
