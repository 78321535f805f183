#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension OutboundRequest {
    /// The request a plugin's `http_send` carries: read in one pass, or by `JSONDecoder` when the fast read
    /// declines (``RelayJSONReader``); nil when neither can read it.
    package static func relayed(_ json: Data) -> OutboundRequest? {
        RelayJSONReader.read(json) { reader in reader.outboundRequest() }
            ?? (try? PluginJSON.decode(OutboundRequest.self, from: json))
    }
}

extension OutboundResult {
    /// The host's answer to an `http_send`: read in one pass, or by `JSONDecoder` when the fast read
    /// declines (``RelayJSONReader``); nil when neither can read it.
    package static func relayed(_ json: Data) -> OutboundResult? {
        RelayJSONReader.read(json) { reader in reader.outboundResult() }
            ?? (try? PluginJSON.decode(OutboundResult.self, from: json))
    }
}

extension RelayJSONReader {
    /// An ``OutboundRequest`` object, as its synthesized `Decodable` reads it.
    mutating func outboundRequest() -> OutboundRequest? {
        var method: String?
        var url: String?
        var headers: [HTTPHeader]?
        var body: Data?
        var timeoutMs: Int?
        var redactHeaders: [String]?
        let read = object { reader, key in
            switch key {
            case "method":
                method = reader.string()
                return method != nil
            case "url":
                url = reader.string()
                return url != nil
            case "headers":
                headers = reader.headers()
                return headers != nil
            case "redactHeaders":
                redactHeaders = reader.strings()
                return redactHeaders != nil
            case "body": return reader.optional(into: &body) { $0.base64() }
            case "timeoutMs": return reader.optional(into: &timeoutMs) { $0.integer() }
            default: return false
            }
        }
        guard read, let method, let url, let headers, let redactHeaders else { return nil }
        return OutboundRequest(
            method: method, url: url, headers: headers, body: body, timeoutMs: timeoutMs, redactHeaders: redactHeaders)
    }

    /// An ``OutboundResult`` object, as its synthesized `Decodable` reads it.
    mutating func outboundResult() -> OutboundResult? {
        var kind: OutboundResult.Kind?
        var status: Int?
        var headers: [HTTPHeader]?
        var body: Data?
        var reason: String?
        let read = object { reader, key in
            switch key {
            case "kind":
                kind = reader.string().flatMap(OutboundResult.Kind.init(rawValue:))
                return kind != nil
            case "headers":
                headers = reader.headers()
                return headers != nil
            case "status": return reader.optional(into: &status) { $0.integer() }
            case "body": return reader.optional(into: &body) { $0.base64() }
            case "reason": return reader.optional(into: &reason) { $0.string() }
            default: return false
            }
        }
        guard read, let kind, let headers else { return nil }
        return OutboundResult(kind: kind, status: status, headers: headers, body: body, reason: reason)
    }

    /// Reads `null` (leaving `value` nil) or a value with `read` into `value`; false when neither reads.
    private mutating func optional<T>(into value: inout T?, _ read: (inout RelayJSONReader) -> T?) -> Bool {
        if nextIsNull() { return null() }
        value = read(&self)
        return value != nil
    }

    /// `[{"name":…,"value":…}, …]`.
    private mutating func headers() -> [HTTPHeader]? {
        var headers: [HTTPHeader] = []
        let read = array { reader in
            var name: String?
            var value: String?
            let pair = reader.object { reader, key in
                switch key {
                case "name":
                    name = reader.string()
                    return name != nil
                case "value":
                    value = reader.string()
                    return value != nil
                default: return false
                }
            }
            guard pair, let name, let value else { return false }
            headers.append(HTTPHeader(name, value))
            return true
        }
        return read ? headers : nil
    }

    /// `["…", …]`.
    private mutating func strings() -> [String]? {
        var strings: [String] = []
        let read = array { reader in
            guard let text = reader.string() else { return false }
            strings.append(text)
            return true
        }
        return read ? strings : nil
    }

    /// A Base64 string, as `Data`'s `Decodable` reads it.
    private mutating func base64() -> Data? {
        string().flatMap { Data(base64Encoded: $0) }
    }
}
