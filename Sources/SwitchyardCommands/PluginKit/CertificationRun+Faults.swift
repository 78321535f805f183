import Foundation
import PluginHost
import ProviderKit

extension CertificationRun {
    /// The provider faults every flow is driven through; none needs to know the provider's wire format.
    enum Fault: CaseIterable, Sendable {
        case unreachable, reset, serverError, unreadable, cancel

        var label: String {
            switch self {
            case .unreachable: "unreachable provider → notSent"
            case .reset: "reset after sending → unknown"
            case .serverError: "503 → unknown"
            case .unreadable: "unreadable body → unknown"
            case .cancel: "cancel honoured"
            }
        }
    }

    /// Drives `flow` through every fault.
    mutating func faults(_ flow: Flow) async {
        for fault in Fault.allCases {
            checks.append(await drive(flow, fault))
        }
    }

    private mutating func drive(_ flow: Flow, _ fault: Fault) async -> CertificationReport.Check {
        let name = "\(flow.rawValue): \(fault.label)"
        switch fault {
        case .unreachable:
            let before = host.sends.count
            let answer = await call(flow, label: fault.label, baseURL: Self.unreachableBaseURL())
            let sent = host.sends.count > before
            guard sent else { return skipped(name, flow, answer) }
            if answer.kind(of: flow) == "notSent" || answer.errorCode == "not_sent" {
                return .pass(name)
            }
            return .fail(
                name,
                "the request never left the host and the plugin answered \(answer.summary(of: flow))"
                    + "\(Self.message(answer)); a failure before sending must be notSent (nothing was charged)")
        case .reset, .serverError, .unreadable:
            stub.script { _ in
                switch fault {
                case .reset: .reset
                case .serverError:
                    .respond(
                        status: 503, headers: [HTTPHeader("content-type", "application/json")],
                        body: Data(#"{"error":"temporarily unavailable"}"#.utf8), delayMs: 0)
                default:
                    .respond(
                        status: 200, headers: [HTTPHeader("content-type", "application/json")],
                        body: Data("<html>upstream proxy error".utf8), delayMs: 0)
                }
            }
            let answer = await call(flow, label: fault.label, baseURL: stub.baseURL)
            guard !stub.requests.isEmpty else { return skipped(name, flow, answer) }
            if answer.kind(of: flow) == "unknown" || answer.errorCode == "unknown" { return .pass(name) }
            return .fail(
                name,
                "the provider may have acted and the plugin answered \(answer.summary(of: flow))\(Self.message(answer)); "
                    + "it must be unknown (then resolved by inquiry), never a success, a decline or notSent")
        case .cancel:
            return await cancel(flow, name)
        }
    }

    /// Starts a call the stub never answers, cancels it once the request arrived, and expects the
    /// plugin's completion within the cancel grace.
    private mutating func cancel(_ flow: Flow, _ name: String) async -> CertificationReport.Check {
        stub.script { _ in .hang }
        let request = requests.request(flow, number: nextNumber())
        let account = account(stub.baseURL, for: flow)
        let plugin = self.plugin
        let stub = self.stub
        let task = Task {
            let answer = await Self.invoke(plugin, flow, request, account: account)
            stub.releaseWaiters()
            return answer
        }
        await stub.firstRequest()
        guard !stub.requests.isEmpty else {
            let answer = await task.value
            calls.append(Call(flow: flow, label: "cancel", answer: answer, prompt: true))
            return skipped(name, flow, answer)
        }
        let cancelled = ContinuousClock.now
        task.cancel()
        let answer = await task.value
        let elapsed = ContinuousClock.now - cancelled
        calls.append(Call(flow: flow, label: "cancel", answer: answer, prompt: false))
        if answer.errorCode == "deadline_exceeded" || answer.errorCode == "deadline_before_send"
            || elapsed > cancelGrace
        {
            return .fail(
                name,
                "asked to cancel, the plugin did not complete the call within \(Self.seconds(cancelGrace)) "
                    + "(the host answered after \(Self.seconds(elapsed))); complete a cancelled call at once with the "
                    + "error code cancelled")
        }
        return .pass(name, "completed \(Self.seconds(elapsed)) after the cancel")
    }

    private func skipped(_ name: String, _ flow: Flow, _ answer: Answer) -> CertificationReport.Check {
        .skip(
            name,
            "the plugin sent no request (it answered \(answer.summary(of: flow))\(Self.message(answer))), so the fault "
                + "cannot reach it; if this flow calls the provider, a scenario with credentials of the right shape lets it run"
        )
    }

    /// A base URL where nothing listens: a loopback port bound and closed at once.
    static func unreachableBaseURL() -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        // Port 9 (discard) is not served on loopback here when no port could be had.
        let port = bound ? Int(UInt16(bigEndian: address.sin_port)) : 9
        return "http://127.0.0.1:\(port)"
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds < 1000 ? "\(milliseconds) ms" : String(format: "%.1f s", Double(milliseconds) / 1000)
    }
}
