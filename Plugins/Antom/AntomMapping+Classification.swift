#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit
import SwitchyardCrypto

extension AntomMapping {
    /// `F` codes that are the customer's or the wallet's refusal (PROVIDERS.md §3.10, decline row).
    static let declineCodes: Set<String> = [
        "USER_BALANCE_NOT_ENOUGH", "USER_AMOUNT_EXCEED_LIMIT", "PAYMENT_AMOUNT_EXCEED_LIMIT",
        "PAYMENT_COUNT_EXCEED_LIMIT", "RISK_REJECT", "USER_NOT_EXIST", "USER_STATUS_ABNORMAL",
        "USER_KYC_NOT_QUALIFIED", "USER_PAYMENT_VERIFICATION_FAILED", "UNAVAILABLE_PAYMENT_METHOD",
        "REGULATION_RESTRICTION", "INVALID_TOKEN", "INVALID_ACCESS_TOKEN", "ORDER_IS_CLOSED", "INVALID_CONTRACT",
        "EXPIRED_CODE", "INVALID_CODE",
    ]

    /// `F` codes that say our integration or the account's configuration is wrong: the request was processed
    /// and refused, and nothing was charged.
    static let configurationCodes: Set<String> = [
        "PARAM_ILLEGAL", "INVALID_SIGNATURE", "INVALID_CLIENT", "INVALID_API", "ACCESS_DENIED", "KEY_NOT_FOUND",
        "METHOD_NOT_SUPPORTED", "MEDIA_TYPE_NOT_ACCEPTABLE", "MERCHANT_NOT_REGISTERED", "NO_INTERFACE_DEF",
        "CURRENCY_NOT_SUPPORT", "BUSINESS_NOT_SUPPORT", "PROCESS_FAIL", "REPEAT_REQ_INCONSISTENT",
    ]

    /// Classifies what the host got back (PROVIDERS.md §3.3, §3.10; DESIGN.md "Outcomes").
    ///
    /// - transport `notSent` → notSent; `noResponse` → unknown (`no_response`);
    /// - any HTTP status other than 200 → unknown (`http_<status>`): Antom answers every business result
    ///   with 200, so anything else may or may not have been processed;
    /// - a body without a readable `result` → unknown (`unparsable_response`);
    /// - a missing or invalid response signature → unknown (`bad_response_signature`); an unsigned answer is
    ///   accepted only when both `signature` and `response-time` are absent and `resultStatus` is `F` or `U`;
    /// - then ``resultOutcome(_:call:)`` decides, and `S` decodes the call's payload.
    static func classify<Payload: Decodable & Sendable>(
        _ result: OutboundResult, call: AntomCall, path: String, clientId: String, publicKey: RSAPublicKey,
        as type: Payload.Type
    ) -> ExchangeResult<Payload> {
        result.classified(provider: "Antom", answered: .okOnly).flatMap { answer in
            guard let body = answer.body,
                let antomResult = ProviderJSON.standard.decode(AntomEnvelope.self, from: body)?.result
            else {
                return .outcome(.unknown(code: "unparsable_response", message: "unreadable answer from Antom"))
            }
            guard
                responseSignatureAccepted(
                    answer, body: body, resultStatus: antomResult.resultStatus, path: path, clientId: clientId,
                    publicKey: publicKey)
            else {
                return .outcome(
                    .unknown(code: "bad_response_signature", message: "Antom's answer is not signed by Antom's key"))
            }
            if let outcome = resultOutcome(antomResult, call: call) {
                return .outcome(outcome)
            }
            return answer.decoded(type, provider: "Antom")
        }
    }

    /// Whether a response's signature is acceptable: both `signature` and `response-time` present and the
    /// signature valid over `POST <path>\n<clientId>.<response-time>.<body>`, or both absent with an `F`/`U`
    /// result. A half-signed answer is never acceptable.
    static func responseSignatureAccepted(
        _ answer: ProviderAnswer, body: Data, resultStatus: String?, path: String, clientId: String,
        publicKey: RSAPublicKey
    ) -> Bool {
        let signature = answer.header("signature")
        let time = answer.header("response-time")
        switch (signature, time) {
        case (nil, nil):
            let status = resultStatus?.uppercased()
            return status == "F" || status == "U"
        case (let signature?, let time?):
            let content = AntomSigning.content(path: path, clientId: clientId, time: time, body: body)
            return AntomSigning.verify(content, headerValue: signature, key: publicKey)
        default:
            return false
        }
    }

    /// The status and result-code table: nil for `S` (the call's payload decides), else the outcome.
    ///
    /// - `U PAYMENT_IN_PROCESS` → unknown; `U REQUEST_TRAFFIC_EXCEED_LIMIT` → notSent (not processed);
    ///   any other `U` (`UNKNOWN_EXCEPTION`) → unknown;
    /// - `F` → declined, not retryable, with Antom's code: a customer decline (``declineCodes``), a
    ///   configuration error (``configurationCodes``), or another definitive refusal (`ORDER_NOT_EXIST`,
    ///   `REFUND_AMOUNT_EXCEED`, `CANCEL_WINDOW_EXCEED`, `VAULTING_NOT_EXIST`, …);
    /// - a missing or other status → unknown (`unrecognised_result`).
    static func resultOutcome(_ result: AntomResult, call: AntomCall) -> Outcome? {
        let code = ProviderText.safeCode(result.resultCode)
        switch result.resultStatus?.trimmingBlanks().uppercased() {
        case "S":
            return nil
        case "U":
            switch code {
            case "REQUEST_TRAFFIC_EXCEED_LIMIT":
                return Outcome(
                    kind: .notSent, providerStatus: code, code: code,
                    message: "Antom refused the request under its traffic limit; nothing was processed")
            case "PAYMENT_IN_PROCESS":
                return Outcome(
                    kind: .unknown, providerStatus: code, code: code, message: "Antom is still processing the payment")
            default:
                return Outcome(
                    kind: .unknown, providerStatus: code, code: code ?? "UNKNOWN_EXCEPTION",
                    message: "Antom does not know the outcome yet")
            }
        case "F":
            let code = code ?? "PROCESS_FAIL"
            return Outcome(
                kind: .declined, providerStatus: code, code: code, message: declineMessage(code, call: call),
                retryable: false)
        default:
            return Outcome.unknown(code: "unrecognised_result", message: "Antom's result status is not recognised")
        }
    }

    /// The message of an `F` result, built from the code alone (Antom's own text is never repeated).
    static func declineMessage(_ code: String, call: AntomCall) -> String {
        if declineCodes.contains(code) { return "Antom declined the \(noun(call)) (\(code))" }
        if configurationCodes.contains(code) {
            return "Antom refused the request as a configuration error (\(code)); nothing was charged"
        }
        switch code {
        case "ORDER_NOT_EXIST": return "Antom has no such payment"
        case "VAULTING_NOT_EXIST": return "Antom has no such vaulting"
        default: return "Antom refused the \(noun(call)) (\(code))"
        }
    }

    /// What a call is about, for messages.
    static func noun(_ call: AntomCall) -> String {
        switch call {
        case .createPaymentSession, .pay, .inquiryPayment: return "payment"
        case .capture: return "capture"
        case .cancel: return "cancellation"
        case .refund, .inquiryRefund: return "refund"
        case .createVaultingSession, .inquireVaulting: return "vaulting"
        case .acceptDispute: return "dispute acceptance"
        case .supplyDefenseDocument: return "defence document"
        }
    }
}
