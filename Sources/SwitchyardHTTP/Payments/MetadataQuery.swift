import Foundation
import SwitchyardCore

/// The `metadata[key]=value` filters of a list request: exact matches, all of which must hold.
enum MetadataQuery {
    /// The filters in `query` (its raw pairs: names still percent-encoded, values decoded); `400
    /// invalid_query` naming the parameter for an empty or too long key, a too long value, a key given twice
    /// or more filters than a resource can have keys.
    static func filters(_ query: some Sequence<(key: Substring, value: Substring)>) throws -> [String: String] {
        var filters: [String: String] = [:]
        for (rawName, value) in query {
            let name = String(rawName).removingPercentEncoding ?? String(rawName)
            guard name.hasPrefix("metadata["), name.hasSuffix("]") else {
                if name == "metadata" || name.hasPrefix("metadata[") {
                    throw APIError(.invalidQuery, "filter by metadata as metadata[key]=value", param: shown(name))
                }
                continue
            }
            let key = String(name.dropFirst("metadata[".count).dropLast())
            guard !key.isEmpty, key.count <= Metadata.maximumKeyLength else {
                throw APIError(
                    .invalidQuery, "a metadata key must be 1 to \(Metadata.maximumKeyLength) characters",
                    param: shown(name))
            }
            guard value.count <= Metadata.maximumValueLength else {
                throw APIError(
                    .invalidQuery, "a metadata value must be at most \(Metadata.maximumValueLength) characters",
                    param: name)
            }
            guard filters.updateValue(String(value), forKey: key) == nil else {
                throw APIError(.invalidQuery, "the metadata filter '\(key)' is given more than once", param: name)
            }
        }
        guard filters.count <= Metadata.maximumKeys else {
            throw APIError(
                .invalidQuery, "at most \(Metadata.maximumKeys) metadata filters are allowed", param: "metadata")
        }
        return filters
    }

    /// A parameter's name as an error shows it: at most 100 characters.
    private static func shown(_ name: String) -> String {
        name.count <= 100 ? name : name.prefix(100) + "…"
    }
}
