import HTTPTypes
import SwitchyardCore

extension ErrorCode {
    /// The HTTP status every error with this code is answered with: the API's one table of code → status.
    public var httpStatus: HTTPResponse.Status {
        switch self {
        case .badRequest, .duplicateKey, .endpointAddressForbidden, .invalidAmount, .invalidAPIVersion,
            .invalidBaseURL, .invalidCountry, .invalidCurrency, .invalidCustomer, .invalidDescription,
            .invalidEnvironment, .invalidEventTypes, .invalidExpand, .invalidExpiresAt, .invalidField, .invalidGrace,
            .invalidIdempotencyKey, .invalidJSON, .invalidLimit, .invalidMetadata, .invalidMethod, .invalidName,
            .invalidParameter, .invalidPolicy, .invalidQuery, .invalidReference, .invalidRequest, .invalidReturnURL,
            .invalidScopes, .invalidStatus, .invalidTenant, .invalidText, .invalidWebhookURL, .missingCredential,
            .missingCustomer, .missingField, .paymentMethodMismatch, .unknownAccount, .unknownCredential,
            .unknownParameter, .unknownPaymentMethod, .vaultingNotSupported:
            return .badRequest
        case .invalidAPIKey, .unauthorized:
            return .unauthorized
        case .providerDeclined:
            return HTTPResponse.Status(code: 402)
        case .forbidden, .insufficientScope, .missingPermission:
            return .forbidden
        case .notFound:
            return .notFound
        case .methodNotAllowed:
            return .methodNotAllowed
        case .disputeAnswerRefused, .disputeClosed, .endpointQuotaExceeded, .idempotencyInProgress,
            .idempotencyKeyReused, .invalidState, .keyNotUsable, .operatorNameTaken, .operatorRevoked,
            .noSession, .noWebhookEndpoint, .notSupported, .outcomeUnknown, .paymentInProgress, .paymentSettled,
            .policyNotReloadable, .rolloutRunning, .routingVersionConflict, .sessionNotRenewable:
            return .conflict
        case .sessionExpired:
            return .gone
        case .bodyTooLarge, .evidenceTooLarge:
            return .contentTooLarge
        case .evidenceTypeRefused, .unsupportedMediaType:
            return .unsupportedMediaType
        case .credentialIsPublicTestValue, .invalidRouting, .noAccountForMode, .noRoute, .paymentMethodUnusable,
            .policyLoosened,
            .refundExceedsCaptured, .refundExceedsUndisputed, .replayWindowTooLarge, .returnURLRequired, .unknownPlugin:
            return .unprocessableContent
        case .rateLimited, .replayQuotaExceeded, .tooManyConcurrentRequests:
            return .tooManyRequests
        case .internalError:
            return .internalServerError
        case .databaseBusy, .databaseUnavailable, .pluginError, .pluginUnavailable, .providerUnreachable,
            .providersUnavailable, .sessionNotRenewed:
            return .serviceUnavailable
        }
    }
}
