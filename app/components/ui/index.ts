// The UI kit: every screen is assembled from these parts (docs/ui.md shows each with its no-JS / JS behaviour).
export { Alert, type Tone } from "./alert";
export { ActiveBadge, Badge, campaignStatusTone, messageStatusTone, PriorityBadge } from "./badge";
export {
  Button,
  buttonClass,
  TextLink,
  type ButtonProps,
  type ButtonLinkProps,
  type ButtonSize,
  type ButtonVariant,
} from "./button";
export { Card, EmptyState, PageHeader, StatCard } from "./card";
export { Checkbox } from "./checkbox";
export { CheckboxList, type CheckboxItem } from "./checkbox-list";
export { ConfirmDialog } from "./confirm-dialog";
export { cx, focusRing } from "./cx";
export { HiddenFields } from "./hidden-fields";
export { Dialog, DialogActions, DialogClose, DialogFooter } from "./dialog";
export { Field, Input, Select, Textarea, type FieldProps } from "./field";
export { RecordCard, RecordEditor, RecordForm } from "./record-editor";
export { ItemList } from "./item-list";
export { focusRow, KeyboardShortcuts, pressInRow, type Shortcut } from "./keyboard-shortcuts";
export { LiveRefresh } from "./live-refresh";
export { PostButton } from "./post-button";
export { ProgressBar, type ProgressPart } from "./progress";
export { SearchBox } from "./search-box";
export { CreateFormCard, RowsCard } from "./settings-cards";
export { SecretOnce } from "./secret-once";
export { Skeleton, Spinner } from "./skeleton";
export { Switch } from "./switch";
export { Pager, Table, TBody, Td, Th, THead } from "./table";
export { Tabs, type TabItem } from "./tabs";
export { Tooltip, TooltipProvider, TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "./tooltip";
export { VerdictButtons, type Verdict } from "./verdict-buttons";
export { useResetOnSuccess } from "./use-reset-on-success";
