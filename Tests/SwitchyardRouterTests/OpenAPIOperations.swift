import Foundation
import HTTPTypes
import SwitchyardHTTP

/// The operations of `openapi.json` as the route contract sees them: each one's query parameters, request
/// headers, response statuses and response headers, every `$ref` resolved.
struct OpenAPIOperations {
    /// What one operation documents.
    struct Operation {
        var query: Set<String> = []
        /// The query parameters documented as `deepObject` (`metadata[<key>]`).
        var deepObjects: Set<String> = []
        var requestHeaders: Set<String> = []
        /// Explicit statuses (`default` aside).
        var statuses: Set<Int> = []
        /// Every header any of its responses documents.
        var responseHeaders: Set<String> = []
    }

    let document: [String: Any]

    /// The document in the source tree, as the server ships it.
    static func load() throws -> OpenAPIOperations {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SwitchyardHTTP/Resources/openapi.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return OpenAPIOperations(document: object as? [String: Any] ?? [:])
    }

    /// `node` with its `$ref` chain followed.
    func resolve(_ node: Any?) -> [String: Any] {
        var node = node as? [String: Any] ?? [:]
        var hops = 0
        while let reference = node["$ref"] as? String, hops < 10 {
            var target: Any? = document
            for part in reference.split(separator: "/").dropFirst() {
                let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                target = (target as? [String: Any])?[key]
            }
            node = target as? [String: Any] ?? [:]
            hops += 1
        }
        return node
    }

    /// The operation of `method` on the path template `path`, nil when the document has none.
    func operation(_ method: HTTPRequest.Method, _ path: String) -> Operation? {
        let paths = document["paths"] as? [String: Any]
        let item = resolve(paths?[path])
        guard let object = item[method.rawValue.lowercased()] as? [String: Any] else { return nil }
        var operation = Operation()
        let shared = item["parameters"] as? [Any] ?? []
        for parameter in (shared + (object["parameters"] as? [Any] ?? [])).map(resolve) {
            guard let name = parameter["name"] as? String else { continue }
            switch parameter["in"] as? String {
            case "query":
                operation.query.insert(name)
                if parameter["style"] as? String == "deepObject" { operation.deepObjects.insert(name) }
            case "header": operation.requestHeaders.insert(name)
            default: break
            }
        }
        for (status, response) in object["responses"] as? [String: Any] ?? [:] {
            if let code = Int(status) { operation.statuses.insert(code) }
            operation.responseHeaders.formUnion((resolve(response)["headers"] as? [String: Any] ?? [:]).keys)
        }
        return operation
    }

    /// How `row` and the document disagree, one message per difference naming the route; empty when they
    /// agree.
    func differences(_ row: RouteContract) -> [String] {
        guard let documented = operation(row.method, row.path) else { return ["\(row.key): not documented"] }
        var found: [String] = []
        func compare<T: Comparable>(_ what: String, declared: Set<T>, documented: Set<T>) {
            let undocumented = declared.subtracting(documented).sorted()
            let undeclared = documented.subtracting(declared).sorted()
            if !undocumented.isEmpty {
                found.append("\(row.key): \(what) declared but not documented: \(undocumented)")
            }
            if !undeclared.isEmpty { found.append("\(row.key): \(what) documented but not declared: \(undeclared)") }
        }
        compare("query parameters", declared: Set(row.query.map(\.documentedName)), documented: documented.query)
        let keyed = row.query.compactMap { if case .keyed(let name) = $0 { name } else { nil } }
        compare("deepObject query parameters", declared: Set(keyed), documented: documented.deepObjects)
        compare("request headers", declared: row.requestHeaders, documented: documented.requestHeaders)
        compare("statuses", declared: row.statuses, documented: documented.statuses)
        compare("response headers", declared: row.responseHeaders, documented: documented.responseHeaders)
        return found
    }
}
