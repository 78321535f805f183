#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// What a Sips response code decides about a call.
enum SipsCodeClass: Sendable, Equatable {
    /// `00`: the call did what was asked; the answer's payload decides the rest.
    case accepted
    /// `94`: the reference was used before; only an inquiry can tell what happened.
    case duplicate
    /// Any other code, already classified.
    case outcome(Outcome)
}

extension SipsMapping {
    /// Response codes that are a definitive refusal of the payment (PROVIDERS.md §5.7).
    static let declineCodes: Set<String> = ["02", "05", "11", "34", "54", "63", "75"]
    /// Acquirer codes that are a definitive refusal by the issuer or the acquirer.
    static let acquirerDeclineCodes: Set<String> = [
        "02", "04", "05", "07", "13", "14", "15", "33", "34", "41", "43", "51", "54", "56", "57", "58", "59", "61",
        "63", "65", "75",
    ]
    /// Response codes that say our request or the transaction's state is wrong: refused, nothing moved.
    static let configurationCodes: Set<String> = ["03", "12", "14", "17", "24", "25", "30", "40"]
    /// Acquirer codes of a temporary failure (system stopped, issuer unreachable, malfunction, unavailable).
    static let temporaryAcquirerCodes: Set<String> = ["90", "91", "96", "98"]
    /// Acquirer codes after which the outcome is not known (awaiting confirmation, no response, timeout).
    static let uncertainAcquirerCodes: Set<String> = ["62", "68", "97"]
    /// The acquirer code of a soft decline that needs 3-D Secure.
    static let authenticationRequiredCode = "A1"

    // MARK: Transport and seal

    /// Classifies what the host got back, before the response code is looked at.
    ///
    /// - transport `notSent` → notSent; `noResponse` → unknown (`no_response`);
    /// - an HTTP status other than 200 → unknown (`http_<status>`): Sips answers every business result with 200;
    /// - a body that is not a JSON object → unknown (`unparsable_response`);
    /// - no `seal` → unknown (`unsealed_response`); a seal that does not verify → unknown (`bad_response_seal`):
    ///   such an answer cannot be trusted, whatever it says;
    /// - a sealed body that does not decode as the service's answer → unknown (`unparsable_response`).
    static func classify<Payload: Decodable & Sendable>(
        _ result: OutboundResult, secret: String, as type: Payload.Type
    ) -> ExchangeResult<Payload> {
        result.classified(provider: "Worldline Sips", answered: .okOnly).flatMap { answer in
            guard let fields = ProviderJSON.standard.object(from: answer.body) else {
                return .outcome(.unknown(code: "unparsable_response", message: "unreadable answer from Worldline Sips"))
            }
            guard fields["seal"] != nil else {
                return .outcome(
                    .unknown(code: "unsealed_response", message: "Worldline Sips' answer carries no seal; not trusted"))
            }
            guard SipsSeal.verify(fields, secret: secret) else {
                return .outcome(
                    .unknown(code: "bad_response_seal", message: "Worldline Sips' answer is not sealed with our key"))
            }
            return answer.decoded(type, provider: "Worldline Sips")
        }
    }

    // MARK: Response codes

    /// The response-code table of a service's answer.
    static func classify(code: String?, acquirer: String?, errorField: String?, service: SipsService)
        -> SipsCodeClass
    {
        classify(
            code: code, acquirer: acquirer, errorField: errorField, movesMoney: service.movesMoney,
            noun: noun(service))
    }

    /// The response-code table of an In-App initialisation's answer (`redirectionStatusCode`).
    static func classify(_ response: SipsInitializeResponse, service: SipsService) -> SipsCodeClass {
        classify(
            code: response.redirectionStatusCode, acquirer: nil, errorField: response.errorFieldName, service: service)
    }

    /// The response-code table (SIPS contract, "Response codes"):
    ///
    /// - `00` → accepted; `94` → duplicate (the caller inquires);
    /// - `90` → notSent; acquirer `90`/`91`/`96`/`98` → notSent on calls that move no money;
    /// - `99`, `60`, acquirer `62`/`68`/`97` → unknown;
    /// - acquirer `A1` → declined, retryable (3-D Secure needed);
    /// - `97` → declined (`session_expired`): the session or timeframe is over;
    /// - `02`, `05`, `11`, `34`, `54`, `63`, `75` or an acquirer decline (`51`, `41`, `43`, …) → declined with the
    ///   acquirer's code when it names one, else the response code (retryable after a temporary acquirer code);
    /// - `03`, `12`, `14`, `17`, `24`, `25`, `30`, `40` → declined with the code as a configuration or state error;
    /// - a missing code → unknown (`unparsable_response`); any other → unknown (`unrecognised_code`).
    static func classify(code: String?, acquirer: String?, errorField: String?, movesMoney: Bool, noun: String)
        -> SipsCodeClass
    {
        guard let code = ProviderText.safeCode(code) else {
            return .outcome(
                .unknown(code: "unparsable_response", message: "Worldline Sips' answer carries no response code"))
        }
        let acquirer = ProviderText.safeCode(acquirer).flatMap { $0 == "00" ? nil : $0 }
        switch code {
        case "00": return .accepted
        case "94": return .duplicate
        case "90":
            return .outcome(
                Outcome(
                    kind: .notSent, providerStatus: code, code: code,
                    message: "Worldline Sips did not process the request (service unavailable)"))
        case "99":
            return .outcome(
                uncertain(code, "Worldline Sips had an internal problem; the outcome of the \(noun) is not known"))
        case "60":
            return .outcome(uncertain(code, "Worldline Sips reports the \(noun) pending at the acquirer"))
        default:
            break
        }
        if let acquirer, uncertainAcquirerCodes.contains(acquirer) {
            return .outcome(uncertain(acquirer, "the acquirer gave no final answer for the \(noun)", status: code))
        }
        let temporary = acquirer.map(temporaryAcquirerCodes.contains) ?? false
        if temporary && !movesMoney {
            return .outcome(
                Outcome(
                    kind: .notSent, providerStatus: code, code: acquirer,
                    message: "the acquirer was temporarily unavailable; the request was not processed"))
        }
        if acquirer == authenticationRequiredCode {
            return .outcome(
                Outcome(
                    kind: .declined, providerStatus: code, code: authenticationRequiredCode,
                    message: "the issuer requires 3-D Secure for the \(noun)", retryable: true))
        }
        if code == "97" {
            return .outcome(
                Outcome(
                    kind: .declined, providerStatus: code, code: "session_expired",
                    message: "the Sips session or timeframe is over; a new attempt is needed", retryable: false))
        }
        if declineCodes.contains(code) || acquirer.map(acquirerDeclineCodes.contains) == true {
            let declineCode = acquirer ?? code
            return .outcome(
                Outcome(
                    kind: .declined, providerStatus: code, code: declineCode,
                    message: "Worldline Sips declined the \(noun) (\(declineCode))", retryable: temporary))
        }
        if configurationCodes.contains(code) {
            let field = ProviderText.safeCode(errorField).map { ", field \($0)" } ?? ""
            return .outcome(
                Outcome(
                    kind: .declined, providerStatus: code, code: code,
                    message: "Worldline Sips refused the \(noun) as a configuration or state error "
                        + "(\(code)\(field)); nothing moved",
                    retryable: false))
        }
        return .outcome(
            uncertain(code, "Worldline Sips' response code is not recognised", ourCode: "unrecognised_code"))
    }

    /// An `unknown` outcome reporting a Sips code.
    static func uncertain(_ code: String, _ message: String, status: String? = nil, ourCode: String? = nil)
        -> Outcome
    {
        Outcome(kind: .unknown, providerStatus: status ?? code, code: ourCode ?? code, message: message)
    }

    /// What a service is about, for messages.
    static func noun(_ service: SipsService) -> String {
        switch service {
        case .orderInitialize: return "payment"
        case .walletInitialize: return "wallet operation"
        case .getTransactionData: return "inquiry"
        case .validate: return "capture"
        case .cancel: return "cancellation"
        case .refund: return "refund"
        case .getWalletData: return "wallet inquiry"
        case .deletePaymentMean: return "card deletion"
        }
    }

    /// A `94` on a call other than an order initialisation: unknown until an inquiry says more.
    static func duplicateOutcome(_ service: SipsService) -> Outcome {
        Outcome(
            kind: .unknown, providerStatus: "94", code: "duplicate_transaction",
            message: "Worldline Sips reports a duplicate \(noun(service)); the outcome is not known")
    }
}
