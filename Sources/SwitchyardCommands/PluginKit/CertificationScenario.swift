import Foundation
import ProviderKit

/// A scenario file of `switchyard plugins check --scenario`: credentials of the right shape, what the
/// stub provider answers per flow and what the plugin must make of it, and a genuine notification.
/// docs/plugins.md describes the format.
struct CertificationScenario: Decodable, Sendable {
    /// The account the flows run for.
    struct Account: Decodable, Sendable {
        var credentials: [String: String]?
        var options: [String: String]?
        var environment: String?
        var accessToken: String?
    }

    /// The basics of every generated request.
    struct Payment: Decodable, Sendable {
        var amount: Int64?
        var currency: String?
        var country: String?
        var method: String?
        var paymentData: [String: JSONValue]?
    }

    /// Which requests a response answers.
    struct Match: Decodable, Sendable {
        var method: String?
        var path: String?
        var pathPrefix: String?

        func matches(_ request: StubProvider.Request) -> Bool {
            if let method, method.uppercased() != request.method.uppercased() { return false }
            if let path, path != request.path { return false }
            if let pathPrefix, !request.path.hasPrefix(pathPrefix) { return false }
            return true
        }
    }

    /// One scripted answer of the stub provider.
    struct Response: Decodable, Sendable {
        var match: Match?
        var status: Int?
        var headers: [String: String]?
        var body: JSONValue?
        var bodyText: String?
        var delayMs: Int?

        var answer: StubProvider.Answer {
            var headers = (self.headers ?? [:]).sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) }
            let data: Data
            if let bodyText {
                data = Data(bodyText.utf8)
            } else if let body {
                data = (try? JSONEncoder().encode(body)) ?? Data()
                if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                    headers.append(HTTPHeader("content-type", "application/json"))
                }
            } else {
                data = Data()
            }
            return .respond(
                status: status ?? 200, headers: headers, body: data, delayMs: max(0, min(delayMs ?? 0, 10_000)))
        }
    }

    /// What a flow's call must give.
    struct Expectation: Decodable, Sendable {
        var kind: String?
        var providerPaymentId: String?
        var amount: Int64?
        var code: String?
        var token: Bool?
        /// For syncVaulting: the credential event's kind, e.g. `created`.
        var event: String?
        /// For revokeCredential: the result's status, e.g. `revoked`.
        var status: String?
    }

    /// One flow's script.
    struct FlowScript: Decodable, Sendable {
        var request: [String: JSONValue]?
        var responses: [Response]?
        var expect: Expectation?
    }

    /// The genuine notification and what it must map to.
    struct Notification: Decodable, Sendable {
        struct Request: Decodable, Sendable {
            var method: String?
            var path: String?
            var headers: [String: String]?
            var body: String
        }

        struct Expectation: Decodable, Sendable {
            var subject: String?
            var reference: String?
            var providerPaymentId: String?
            var kind: String?
        }

        struct Forge: Decodable, Sendable {
            var header: String?
        }

        var request: Request
        var expect: Expectation?
        var forge: Forge?
    }

    var account: Account?
    /// The host's clock for the whole run (ISO 8601), for a scenario whose signed messages carry a time.
    var now: Date?
    var payment: Payment?
    var flows: [String: FlowScript]?
    var notification: Notification?

    /// Reads a scenario file, naming the path and the problem when it cannot.
    static func read(_ path: String) throws -> CertificationScenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CertificationInputError("cannot read the scenario \(path)")
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let scenario = try decoder.decode(CertificationScenario.self, from: data)
            for name in (scenario.flows ?? [:]).keys where Flow(rawValue: name) == nil {
                throw CertificationInputError("the scenario \(path) names flow \(name), which is not a flow")
            }
            return scenario
        } catch let error as CertificationInputError {
            throw error
        } catch {
            throw CertificationInputError("the scenario \(path) is not valid: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not JSON" }
        let context: DecodingError.Context
        var last: String?
        switch decoding {
        case .keyNotFound(let key, let found):
            context = found
            last = key.stringValue
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
            context = found
        @unknown default:
            return "not valid"
        }
        let path = (context.codingPath.map(\.stringValue) + [last].compactMap { $0 }).joined(separator: ".")
        if last != nil { return "missing \(path)" }
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}

/// Bad input to `switchyard plugins check` (a file that cannot be read, a scenario that does not decode).
struct CertificationInputError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
