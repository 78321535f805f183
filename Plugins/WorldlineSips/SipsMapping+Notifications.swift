#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit
import SwitchyardCrypto

/// One reading of an automatic response's form fields (`Data`, `Seal`, `Encode`, `InterfaceVersion`).
struct SipsAutomaticResponse: Sendable, Equatable {
    /// `Data` as sent: `key=value|key=value|…`, or its base64 when `Encode` is `base64`.
    var data: String
    var seal: String
    var encode: String?
    var interfaceVersion: String?

    /// Whether `Data` is base64.
    var isBase64: Bool {
        encode?.trimmingBlanks().lowercased() == "base64"
    }
}

extension SipsMapping {
    /// The acknowledgement of a verified automatic response.
    static let acknowledgement = "OK"
    /// The answer to an automatic response that cannot be trusted.
    static let rejection = "rejected"

    /// The readings of an automatic response's form body, the standard one (`+` is a space) first, then one that
    /// keeps a literal `+` (a sender that did not escape it in base64 or a time offset); whichever the seal
    /// verifies is the one sent. Empty when the body is not a form or lacks `Data` or `Seal`.
    static func automaticResponses(_ body: Data) -> [SipsAutomaticResponse] {
        guard let text = String(data: body, encoding: .utf8) else { return [] }
        var readings: [SipsAutomaticResponse] = []
        for plusIsSpace in [true, false] {
            guard let fields = FormEncoding.fields(text, plusIsSpace: plusIsSpace), let data = fields["Data"],
                let seal = fields["Seal"], !data.isEmpty, !seal.isEmpty
            else { continue }
            let reading = SipsAutomaticResponse(
                data: data, seal: seal, encode: fields["Encode"], interfaceVersion: fields["InterfaceVersion"])
            if !readings.contains(reading) { readings.append(reading) }
        }
        return readings
    }

    /// The `Data` text of a verified reading: decoded from base64 when `Encode` says so; nil when unreadable.
    static func dataText(_ response: SipsAutomaticResponse) -> String? {
        guard response.isBase64 else { return response.data }
        let compact = response.data.filter { !$0.isWhitespace }
        guard let bytes = Base64.decode(compact) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `key=value|key=value|…`; the first occurrence of a key wins.
    static func dataFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for part in text.split(separator: "|", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingBlanks()
            guard !name.isEmpty, fields[name] == nil else { continue }
            fields[name] = pieces.count > 1 ? String(pieces[1]) : ""
        }
        return fields
    }

    /// What a verified automatic response says about the order: one payment event referenced by `returnContext`
    /// (our attempt id) and named by `transactionReference`.
    ///
    /// `00` → succeeded with the amount captured (`AUTHOR_CAPTURE`) or authorized (`VALIDATION`); `60` → pending;
    /// anything else by the code table (declines with the acquirer's code, `99` unknown, …).
    static func automaticResponseEvent(_ fields: [String: String]) -> NotificationEvent {
        let transaction = fields["transactionReference"].flatMap { value -> String? in
            !value.isEmpty && value.count <= maxTransactionReferenceLength
                && value.unicodeScalars.allSatisfy(ProviderText.isAlphanumeric) ? value : nil
        }
        let returnContext = fields["returnContext"].flatMap { $0.isEmpty ? nil : String($0.prefix(128)) }
        let amount = fields["amount"].flatMap { Int64($0.trimmingBlanks()) }
        let code = ProviderText.safeCode(fields["responseCode"])
        let outcome: Outcome
        switch code {
        case "00":
            if fields["captureMode"]?.trimmingBlanks().uppercased() == "VALIDATION" {
                outcome = Outcome(
                    kind: .authorized, providerPaymentId: transaction, providerStatus: code, amount: amount)
            } else {
                outcome = Outcome(
                    kind: .succeeded, providerPaymentId: transaction, providerStatus: code, amount: amount,
                    capturedAmount: amount)
            }
        case "60":
            outcome = Outcome(
                kind: .pending, providerPaymentId: transaction, providerStatus: code, amount: amount,
                message: "Worldline Sips reports the payment pending at the acquirer")
        default:
            let verdict = classify(
                code: code, acquirer: fields["acquirerResponseCode"], errorField: nil, movesMoney: true,
                noun: "payment")
            switch verdict {
            case .accepted, .duplicate:
                outcome = duplicateOutcome(.orderInitialize).naming(transaction)
            case .outcome(let classified):
                var classified = classified.naming(transaction)
                classified.amount = amount
                outcome = classified
            }
        }
        return NotificationEvent(
            subject: .payment, reference: returnContext, providerPaymentId: transaction, outcome: outcome)
    }
}
