extension WorldlineSipsState {
    /// The answer to an authenticated service call; refusals become `<codeField>` + `errorFieldName`.
    func serve(
        _ service: SipsService, merchantId: String, fields: SipsFields, interfaceVersion: String, baseURL: String
    ) -> SipsAnswer {
        do throws(SipsFailure) {
            switch service {
            case .orderInitialize:
                return try orderInitialize(
                    merchantId: merchantId, fields: fields, interfaceVersion: interfaceVersion, baseURL: baseURL)
            case .walletInitialize:
                return try walletInitialize(
                    merchantId: merchantId, fields: fields, interfaceVersion: interfaceVersion, baseURL: baseURL)
            case .getTransactionData: return try getTransactionData(merchantId: merchantId, fields: fields)
            case .validate: return try validate(merchantId: merchantId, fields: fields)
            case .cancel: return try cancel(merchantId: merchantId, fields: fields)
            case .refund: return try refund(merchantId: merchantId, fields: fields)
            case .getWalletData: return try getWalletData(merchantId: merchantId, fields: fields)
            case .deletePaymentMean: return try deletePaymentMean(merchantId: merchantId, fields: fields)
            }
        } catch {
            return SipsAnswer(Self.refusal(error, codeField: service.codeField))
        }
    }

    /// The answer to an app call and the merchant of its init context (nil when the call names no known
    /// context: the answer is then `30` and cannot be sealed).
    func serve(_ function: SipsAppFunction, fields: SipsFields, baseURL: String) -> (String?, SipsAnswer) {
        guard let id = contextID(for: function, fields: fields), let merchantId = merchantId(ofContext: id) else {
            let field =
                function == .cardValidateAuthenticationAndOrder ? "transactionContextData" : "redirectionData"
            return (nil, SipsAnswer(Self.refusal(.format(field), codeField: function.codeField)))
        }
        do throws(SipsFailure) {
            let context = try open(id, for: function, fields: fields)
            switch function {
            case .cardOrder: return (merchantId, try cardOrder(context, fields: fields))
            case .walletOrder: return (merchantId, try walletOrder(context, fields: fields))
            case .cardCheckEnrollment, .walletCheckEnrollment:
                return (merchantId, try checkEnrollment(context, function: function, fields: fields, baseURL: baseURL))
            case .cardValidateAuthenticationAndOrder:
                return (merchantId, try validateAuthenticationAndOrder(context, fields: fields))
            case .addCard: return (merchantId, try addCard(context, fields: fields))
            case .getWalletData: return (merchantId, try appGetWalletData(context))
            case .deletePaymentMean: return (merchantId, try appDeletePaymentMean(context, fields: fields))
            }
        } catch {
            return (merchantId, SipsAnswer(Self.refusal(error, codeField: function.codeField)))
        }
    }

    /// `{<codeField>: code, errorFieldName: field}`.
    static func refusal(_ failure: SipsFailure, codeField: String) -> SipsObject {
        var body = SipsObject()
        body.set(codeField, failure.code)
        body.set("errorFieldName", failure.field)
        return body
    }
}
