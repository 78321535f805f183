import Foundation
import ProviderKit

extension CertificationRun {
    /// The notification checks: a forged one refused; with a scenario, the genuine one accepted and
    /// mapped to its payment, and the same one altered (body, then signature header) refused.
    mutating func driveNotifications() async {
        guard plugin.manifest.flows.contains(.notification) else { return }
        guard let genuine = requests.scenario?.notification else {
            let forged = NotificationRequest(
                method: "POST", path: "/", headers: [HTTPHeader("content-type", "application/json")],
                body: Data("{}".utf8))
            checks.append(await refused(forged, "notification: forged refused", "a notification with no signature"))
            return
        }
        let request = NotificationRequest(
            method: genuine.request.method ?? "POST", path: genuine.request.path ?? "/",
            headers: (genuine.request.headers ?? [:]).sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) },
            body: Data(genuine.request.body.utf8))
        checks.append(await accepted(request, genuine.expect))
        var altered = request
        altered.body = Self.alter(request.body)
        checks.append(
            await refused(
                altered, "notification: altered body refused",
                "the genuine notification with one byte of its body changed"))
        if let header = genuine.forge?.header {
            var forged = request
            guard let index = forged.headers.firstIndex(where: { $0.name.lowercased() == header.lowercased() }) else {
                checks.append(
                    .fail(
                        "notification: forged signature refused", "the scenario's notification has no header \(header)")
                )
                return
            }
            forged.headers[index].value = String(
                decoding: Self.alter(Data(forged.headers[index].value.utf8)), as: UTF8.self)
            checks.append(
                await refused(
                    forged, "notification: forged signature refused",
                    "the genuine notification with its \(header) altered"))
        }
    }

    private mutating func notify(_ request: NotificationRequest) async -> Answer {
        var fields: [String: JSONValue] = [
            "method": .string(request.method), "path": .string(request.path),
            "headers": .array(request.headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
            "body": .string(request.body.base64EncodedString()),
        ]
        if let encoded = try? PluginJSON.encoder().encode(request),
            let decoded = try? JSONDecoder().decode(JSONValue.self, from: encoded), case .object(let object) = decoded
        {
            fields = object
        }
        _ = nextNumber()
        let answer = await Self.invoke(
            plugin, .notification, .object(fields), account: account(stub.baseURL, for: .notification))
        calls.append(Call(flow: .notification, label: "notification", answer: answer, prompt: true))
        return answer
    }

    private mutating func refused(_ request: NotificationRequest, _ name: String, _ what: String) async
        -> CertificationReport.Check
    {
        let answer = await notify(request)
        if answer.result?["verified"] == .bool(true) {
            return .fail(name, "\(what) was verified; verify the provider's signature before trusting a notification")
        }
        let events = answer.result?["events"]?.arrayValue?.count ?? 0
        if events > 0 {
            return .fail(name, "\(what) was refused but still reported \(events) events; report none")
        }
        return .pass(name, answer.result == nil ? "refused with error \(answer.errorCode ?? "?")" : "verified: false")
    }

    private mutating func accepted(
        _ request: NotificationRequest, _ expect: CertificationScenario.Notification.Expectation?
    ) async -> CertificationReport.Check {
        let name = "notification: genuine accepted"
        let answer = await notify(request)
        guard answer.result?["verified"] == .bool(true) else {
            let reason = answer.result?["failureReason"]?.stringValue ?? answer.errorCode ?? "not verified"
            return .fail(name, "the scenario's genuine notification was refused (\(reason))")
        }
        guard let expect else { return .pass(name, "verified") }
        let events = answer.result?["events"]?.arrayValue ?? []
        let match = events.first { event in
            (expect.subject == nil || event["subject"]?.stringValue == expect.subject)
                && (expect.reference == nil || event["reference"]?.stringValue == expect.reference)
                && (expect.providerPaymentId == nil
                    || event["providerPaymentId"]?.stringValue == expect.providerPaymentId)
                && (expect.kind == nil || event["outcome"]?["kind"]?.stringValue == expect.kind)
        }
        guard match != nil else {
            let seen = events.map {
                "\($0["subject"]?.stringValue ?? "?") \($0["reference"]?.stringValue ?? $0["providerPaymentId"]?.stringValue ?? "?") \($0["outcome"]?["kind"]?.stringValue ?? "?")"
            }
            return .fail(
                name,
                "no event maps to the expected payment; events: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))"
            )
        }
        return .pass(name, "verified, \(events.count) event(s), mapped to the expected payment")
    }

    /// `data` with one byte changed (the last non-space one, so a JSON body stays nearly the same).
    static func alter(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        guard
            let index = bytes.indices.reversed().first(where: { ![0x20, 0x0a, 0x0d, 0x7d, 0x22].contains(bytes[$0]) })
        else { return data + Data("x".utf8) }
        bytes[index] =
            bytes[index] == UInt8(ascii: "0")
            ? UInt8(ascii: "1") : (bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "0"))
        return Data(bytes)
    }
}
