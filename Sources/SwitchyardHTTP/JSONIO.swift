import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwitchyardCore

/// Reading and writing JSON bodies with Switchyard's rules: a size limit, strict types, and bad input
/// reported as a 4xx with a stable code naming the field.
public enum JSONIO {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// Reads the whole body, refusing more than `limit` bytes with 413 `body_too_large`.
    static func body(_ request: Request, limit: Int) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError(.bodyTooLarge, "the request body exceeds \(limit) bytes")
        }
    }

    /// Decodes a JSON body; an empty body decodes as `{}`. The body is first read by ``StrictJSON``, which
    /// refuses duplicate keys, NUL characters and deep nesting, and tells integer fields how numbers were
    /// written. In an API version that refuses unknown fields (``APIVersion/Change/unknownFieldsRefused``),
    /// a field `T` does not read is `400 unknown_parameter`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let data = data.isEmpty ? Data("{}".utf8) : data
        let report = try StrictJSON.scan(data)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[StrictJSON.reportKey] = report
        do {
            let value = try decoder.decode(type, from: data)
            if RequestVersion.has(.unknownFieldsRefused) { try refuseUnknownFields(type, in: data) }
            return value
        } catch let error as DecodingError {
            throw describe(error)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.invalidJSON, "the body is not valid JSON")
        }
    }

    /// Reads the body of an operation that takes no fields: ignored, except that an API version refusing
    /// unknown fields refuses any field in it (`400 unknown_parameter`) and a body that is not JSON.
    static func noFields(_ data: Data) throws {
        guard RequestVersion.has(.unknownFieldsRefused) else { return }
        _ = try decode(NoFields.self, from: data)
    }

    /// Reads the body of an operation that takes no fields, within `limit` bytes, and checks it as
    /// ``noFields(_:)`` does: for the body-less operations that do not go through the `Idempotency-Key` gate.
    static func noFields(_ request: Request, limit: Int) async throws {
        try noFields(try await body(request, limit: limit))
    }

    /// A body without fields.
    private struct NoFields: Decodable {}

    /// Throws `400 unknown_parameter`, naming the field by its JSON path, for the first field of `data`
    /// (in path order) that `type` never reads.
    static func refuseUnknownFields<T: Decodable>(_ type: T.Type, in data: Data) throws {
        guard let unknown = try UnknownKeys.find(in: data, readBy: [type]).first else { return }
        let hint = unknown.suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        throw APIError(
            .unknownParameter, "the field '\(unknown.path.prefix(100))' is not known to this endpoint\(hint)",
            param: unknown.path)
    }

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
