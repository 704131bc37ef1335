import type { Catalogue } from './en.js';

export const ar: Catalogue = {
  validation_failed: 'الطلب غير صالح.',
  invalid_json: 'نص الطلب ليس JSON صالحًا.',
  unauthorized: 'سجّل الدخول للقيام بذلك.',
  invalid_token: 'رمز الوصول غير صالح.',
  token_expired: 'انتهت صلاحية رمز الوصول.',
  invalid_credentials: 'اسم المستخدم أو كلمة المرور غير صحيحة.',
  quota_exceeded: 'لم يتبقَّ في باقتك رصيد لهذا الإجراء.',
  forbidden: 'غير مسموح لك بالقيام بذلك.',
  account_suspended: 'هذا الحساب موقوف.',
  not_found: 'غير موجود.',
  route_not_found: 'لا يوجد مسار يطابق {method} {path}.',
  conflict: 'يتعارض هذا مع سجل موجود.',
  email_taken: 'عنوان البريد الإلكتروني هذا مسجّل بالفعل.',
  username_taken: 'اسم المستخدم هذا مستخدم بالفعل.',
  already_reviewed: 'لقد قمت بالتقييم مسبقًا.',
  invalid_transition: 'لا يمكن تنفيذ هذا الإجراء بينما حالة الإعلان {state}.',
  payload_too_large: 'نص الطلب كبير جدًا (الحد {limit} بايت).',
  unsupported_media_type: 'نوع المحتوى هذا غير مدعوم.',
  rate_limited: 'طلبات كثيرة جدًا. حاول مرة أخرى بعد {seconds} ثانية.',
  internal_error: 'حدث خطأ من جهتنا. اذكر معرّف الطلب {request_id} عند الإبلاغ عنه.',
  service_unavailable: 'الخدمة غير متاحة الآن. حاول مرة أخرى بعد قليل.',
  rule_required: 'مطلوب',
  rule_unknown_field: 'ليس حقلًا مقبولًا',
  rule_type: 'يجب أن يكون من النوع {type}',
  rule_enum: 'يجب أن يكون إحدى القيم: {values}',
  rule_minimum: 'يجب ألا يقل عن {limit}',
  rule_maximum: 'يجب ألا يزيد على {limit}',
  rule_min_length: 'يجب ألا يقل طوله عن {limit} حرفًا',
  rule_max_length: 'يجب ألا يزيد طوله على {limit} حرفًا',
  rule_max_items: 'يجب ألا يزيد على {limit} عنصرًا',
  rule_pattern: 'تنسيقه غير صالح',
  rule_format: 'يجب أن يكون {format} صالحًا',
  rule_invalid: 'غير صالح',
  rule_integer_list: 'يجب أن يكون قائمة أعداد صحيحة موجبة مفصولة بفواصل',
  rule_slug_list: 'يجب أن يكون قائمة معرّفات نصية مفصولة بفواصل',
  rule_unknown_term: 'لا يطابق أي مصطلح في هذا التصنيف',
  rule_wrong_taxonomy: 'يجب أن يكون مصطلحًا من التصنيف {taxonomy}',
  rule_not_for_taxonomy: 'غير مقبول للتصنيف {taxonomy}',
  rule_parent_cycle: 'لا يمكن أن يكون المصطلح نفسه أو أحد فروعه',
  rule_empty_slug: 'يجب أن يحتوي على حرف أو رقم واحد على الأقل',
  record_not_found: 'لم يتم العثور على أي سجل',
  login_success: 'تم تسجيل دخولك بنجاح.',
  term_slug_taken: 'يوجد مصطلح بهذا المعرّف النصي في هذا التصنيف بالفعل.',
  term_deleted: 'تم حذف المصطلح.',

  // Accounts (auth, sessions, password reset)

  // Profiles and users

  // Media

  // Social login
};
