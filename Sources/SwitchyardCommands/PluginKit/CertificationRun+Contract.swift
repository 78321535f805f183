import Foundation
import ProviderKit

extension CertificationRun {
    /// Waits for completions still on their way (a plugin completing a call twice does it within a few
    /// milliseconds of the first, or when its outbound request ends, which closing the stub's connections
    /// forced).
    func settle() async {
        try? await Task.sleep(for: .milliseconds(500))
    }

    /// The checks over everything the run saw.
    func contractChecks() -> [CertificationReport.Check] {
        [exactlyOnce(), prompt(), secrets(), baseURL(), idempotencyKey(), schemas()]
    }

    private func exactlyOnce() -> CertificationReport.Check {
        let name = "every call completed exactly once"
        let late = host.lines.filter { $0.message == "plugin completed a call no longer in flight" }
        let host = calls.filter { ["deadline_exceeded", "deadline_before_send"].contains($0.answer.errorCode ?? "") }
        if !late.isEmpty {
            return .fail(
                name, "\(late.count) completion(s) arrived for calls already completed; call each completion once")
        }
        if let first = host.first {
            return .fail(
                name, "\(first.flow.rawValue) (\(first.label)) was never completed; the host answered at its deadline")
        }
        return .pass(name, "\(calls.count) calls, each completed once")
    }

    private func prompt() -> CertificationReport.Check {
        let name = "calls complete promptly"
        let slow = calls.filter { $0.prompt && $0.answer.duration > promptLimit }
        if let first = slow.first {
            return .fail(
                name,
                "\(first.flow.rawValue) (\(first.label)) took \(Self.seconds(first.answer.duration)) though the stub answered at once"
            )
        }
        let slowest = calls.filter(\.prompt).map(\.answer.duration).max() ?? .zero
        return .pass(name, "slowest \(Self.seconds(slowest))")
    }

    private func secrets() -> CertificationReport.Check {
        let name = "secrets stay secret"
        let secretFields = Set(plugin.manifest.credentials.filter(\.secret).map(\.name))
        let credentials = requests.credentials
        var named: [(field: String, value: String)] = requests.secrets.map { value in
            (credentials.first { secretFields.contains($0.key) && $0.value == value }?.key ?? "access token", value)
        }
        named.sort { $0.field < $1.field }
        var places: [(String, String)] = []
        for line in host.lines {
            places.append(
                (
                    "a log line (\(line.message.prefix(60)))",
                    ([line.message] + line.metadata.values).joined(separator: " ")
                ))
        }
        for call in calls {
            let reply =
                call.answer.result.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
                ?? ""
            // The accessToken flow's reply is where a token belongs.
            let text =
                call.flow == .accessToken ? reply.replacingOccurrences(of: requests.accessToken, with: "") : reply
            places.append(
                ("the \(call.flow.rawValue) reply (\(call.label))", text + " " + (call.answer.errorMessage ?? "")))
        }
        for sent in host.sends {
            places.append(("an outbound URL", sent.request.url))
        }
        guard !named.isEmpty else { return .skip(name, "the manifest declares no secret credential") }
        var leaks: [String] = []
        for (field, value) in named {
            var seen: [String] = []
            for place in places where place.1.contains(value) && !seen.contains(place.0) { seen.append(place.0) }
            if !seen.isEmpty {
                let more = seen.count > 3 ? " and \(seen.count - 3) more places" : ""
                leaks.append("the value of \(field) appears in \(seen.prefix(3).joined(separator: ", "))\(more)")
            }
        }
        if leaks.isEmpty {
            return .pass(name, "\(named.count) secret value(s) in no log line, error, outcome or URL")
        }
        return .fail(name, leaks.joined(separator: "; ") + "; never log, return or put a secret in a URL")
    }

    private func baseURL() -> CertificationReport.Check {
        let name = "requests stay at the account's base URL"
        let stray = host.sends.filter { !$0.withinBaseURL }
        if let first = stray.first {
            let host = URLComponents(string: first.request.url)?.host ?? "an invalid URL"
            return .fail(
                name,
                "\(stray.count) request(s) outside the base URL (first to \(host)); build every URL from account.baseURL"
            )
        }
        return .pass(name, "\(host.sends.count) requests")
    }

    private func idempotencyKey() -> CertificationReport.Check {
        let name = "Idempotency-Key reaches the provider"
        guard plugin.manifest.honoursIdempotencyKey else {
            return .skip(name, "the manifest does not say the provider honours an idempotency key")
        }
        // The manifest's promise is an idempotency key "in a header or as the request id" on money-moving
        // calls: each such flow's requests carry the key Switchyard gave it (authorize: its idempotencyKey or
        // attempt id; complete, capture, void: the operation id; refund: the refund id).
        let keys: [Flow: [String]] = [
            .authorize: [requests.idempotencyKey, "att_check_", "pay_check_"],
            .complete: ["op_check_", "att_check_", requests.idempotencyKey], .capture: ["op_check_"],
            .void: ["op_check_"], .refund: ["ref_check_"],
        ]
        var checked: [String] = []
        var missing: [String] = []
        for flow in Flow.allCases {
            guard let expected = keys[flow] else { continue }
            let sent = host.sends.filter { $0.withinBaseURL && $0.flow == flow }
            guard !sent.isEmpty else { continue }
            let carried = sent.contains { sent in
                let text =
                    sent.request.url + " " + sent.request.headers.map(\.value).joined(separator: " ") + " "
                    + (sent.request.body.map { String(decoding: $0, as: UTF8.self) } ?? "")
                return expected.contains { text.contains($0) }
            }
            (carried ? { checked.append(flow.rawValue) } : { missing.append(flow.rawValue) })()
        }
        // A flow may move no money at its provider (an authorize that only opens a session), so the check
        // asks that the key reaches the provider on some money-moving call and names the ones without it.
        if checked.isEmpty && missing.isEmpty { return .skip(name, "the plugin sent no money-moving request") }
        if checked.isEmpty {
            return .fail(
                name,
                "no request of \(missing.joined(separator: ", ")) carried its idempotency key; send it as the "
                    + "provider's idempotency header or request id, or declare honoursIdempotencyKey false")
        }
        let without = missing.isEmpty ? "" : "; not by \(missing.joined(separator: ", "))"
        return .pass(name, "carried by \(checked.joined(separator: ", "))\(without)")
    }

    private func schemas() -> CertificationReport.Check {
        let name = "replies match the ABI schemas"
        var problems: [String] = []
        let hostCodes: Set<String> = [
            "cancelled", "deadline_exceeded", "deadline_before_send", "worker_lost", "worker_lost_before_send",
            "worker_unavailable", "not_supported",
        ]
        for call in calls {
            if call.answer.errorCode == "bad_reply" {
                problems.append(
                    "\(call.flow.rawValue) (\(call.label)): \(call.answer.errorMessage ?? "the reply does not decode")")
                continue
            }
            let reply: JSONValue
            if let result = call.answer.result {
                reply = .object(["result": result])
            } else if let code = call.answer.errorCode, !hostCodes.contains(code) {
                reply = .object([
                    "error": .object(["code": .string(code), "message": .string(call.answer.errorMessage ?? "")])
                ])
            } else {
                continue
            }
            do {
                let found = try SDKFiles.schemaValidator.problems(
                    reply, against: "flows/\(call.flow.rawValue).reply.json")
                problems += found.prefix(2).map { "\(call.flow.rawValue) (\(call.label)): \($0)" }
            } catch {
                problems.append("the schema of \(call.flow.rawValue) cannot be read: \(error)")
            }
        }
        return problems.isEmpty
            ? .pass(name, "\(calls.count) replies") : .fail(name, problems.prefix(5).joined(separator: "; "))
    }
}
