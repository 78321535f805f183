import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto

/// A request's JSON body, read once: ``StrictJSON`` scans it into a document when it arrives, and the
/// body's type is decoded from that document, its unknown fields found in the same pass, and its
/// idempotency hash taken over it, with no second reading of the bytes.
///
/// An empty body reads as `{}`. A body the scan refuses keeps the refusal, which decoding it throws: a
/// route that reads no fields ignores such a body in the versions that ignore fields.
struct JSONBody: Sendable {
    /// The bytes as they arrived.
    let data: Data
    /// The merchant API version the request is answered in; nil outside `/v1` (the operator API).
    let version: APIVersion?
    private let document: Result<StrictJSON.Document, APIError>

    init(_ data: Data, version: APIVersion? = nil) {
        self.data = data
        self.version = version
        if data.isEmpty {
            document = .success(StrictJSON.Document(value: .object([:]), report: StrictJSON.Report()))
        } else {
            document = Result { () throws(APIError) in try StrictJSON.scan(data) }
        }
    }

    /// Decodes the body as a `T`; a problem is a 400 naming the field. In an API version that refuses
    /// unknown fields (``APIVersion/Change/unknownFieldsRefused``), a field `T` does not read is
    /// `400 unknown_parameter`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let document = try document.get()
        let refusingUnknown = version?.has(.unknownFieldsRefused) ?? false
        let decoded: (value: T, unknown: [UnknownKey])
        do {
            decoded = try UnknownKeys.decode(
                type, from: document.value, userInfo: [StrictJSON.reportKey: document.report],
                findingUnknown: refusingUnknown)
        } catch let error as DecodingError {
            throw JSONIO.describe(error)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.invalidJSON, "the body is not valid JSON")
        }
        if let unknown = decoded.unknown.first {
            let hint = unknown.suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            throw APIError(
                .unknownParameter, "the field '\(unknown.path.prefix(100))' is not known to this endpoint\(hint)",
                param: unknown.path)
        }
        return decoded.value
    }

    /// Checks the body of an operation that takes no fields: ignored, except that an API version refusing
    /// unknown fields refuses any field in it (`400 unknown_parameter`) and a body that is not JSON.
    func noFields() throws {
        guard version?.has(.unknownFieldsRefused) ?? false else { return }
        _ = try decode(NoFields.self)
    }

    /// A body without fields.
    private struct NoFields: Decodable {}

    /// The hash that decides whether two requests with one key are "the same": over the body in
    /// ``CanonicalJSON``'s form (sorted keys, no insignificant white space), so key order does not matter;
    /// over the raw bytes for an empty body and one the scan refuses.
    var requestHash: String {
        let canonical: [UInt8]
        switch document {
        case .success(let document) where !data.isEmpty: canonical = CanonicalJSON.bytes(document.value)
        default: canonical = [UInt8](data)
        }
        return Hex.encode(SHA2.sha256(canonical))
    }
}
