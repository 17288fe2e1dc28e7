""" Contains all the data models used in inputs/outputs """

from .adjustment_in import AdjustmentIn
from .audit_entry_out import AuditEntryOut
from .audit_list import AuditList
from .balance_in import BalanceIn
from .balance_in_party_policy import BalanceInPartyPolicy
from .balance_out import BalanceOut
from .balance_out_party_policy import BalanceOutPartyPolicy
from .balance_player_in import BalancePlayerIn
from .balanced_split import BalancedSplit
from .balanced_team import BalancedTeam
from .batch_item_out import BatchItemOut
from .batch_item_out_status import BatchItemOutStatus
from .calibration_bin_out import CalibrationBinOut
from .candidate_in import CandidateIn
from .candidate_in_params_type_0 import CandidateInParamsType0
from .change_out import ChangeOut
from .change_out_details import ChangeOutDetails
from .configuration import Configuration
from .configuration_params import ConfigurationParams
from .curve_out import CurveOut
from .curve_point_out import CurvePointOut
from .decay_out import DecayOut
from .delivery_list import DeliveryList
from .delivery_out import DeliveryOut
from .evaluate_in import EvaluateIn
from .evaluate_out import EvaluateOut
from .evaluation_result import EvaluationResult
from .evaluation_result_params import EvaluationResultParams
from .event_context_in import EventContextIn
from .event_ref import EventRef
from .event_ref_kind import EventRefKind
from .event_statistics_out import EventStatisticsOut
from .feed_item_out import FeedItemOut
from .feed_page import FeedPage
from .fit_out import FitOut
from .game_batch_in import GameBatchIn
from .game_batch_out import GameBatchOut
from .game_in import GameIn
from .game_list import GameList
from .game_out import GameOut
from .game_out_teams_type_0_item import GameOutTeamsType0Item
from .game_player_in import GamePlayerIn
from .get_health_response_gethealth import GetHealthResponseGethealth
from .get_leaderboard_order_type_0 import GetLeaderboardOrderType0
from .get_leaderboard_sort import GetLeaderboardSort
from .history_entry import HistoryEntry
from .history_entry_details import HistoryEntryDetails
from .history_out import HistoryOut
from .key_created import KeyCreated
from .key_in import KeyIn
from .key_in_scopes_item import KeyInScopesItem
from .key_list import KeyList
from .key_out import KeyOut
from .ladder_changed import LadderChanged
from .ladder_changed_params import LadderChangedParams
from .ladder_in import LadderIn
from .ladder_in_params_type_0 import LadderInParamsType0
from .ladder_list import LadderList
from .ladder_out import LadderOut
from .ladder_out_params import LadderOutParams
from .ladder_patch import LadderPatch
from .ladder_patch_params_type_0 import LadderPatchParamsType0
from .ladder_rating_out import LadderRatingOut
from .leaderboard_entry import LeaderboardEntry
from .leaderboard_out import LeaderboardOut
from .loss_range import LossRange
from .member_prediction import MemberPrediction
from .merge_in import MergeIn
from .metrics_out import MetricsOut
from .moved_rating import MovedRating
from .opponent_out import OpponentOut
from .opponents_out import OpponentsOut
from .pair_prediction import PairPrediction
from .placement_prediction import PlacementPrediction
from .placing import Placing
from .player_action_out import PlayerActionOut
from .player_item import PlayerItem
from .player_list import PlayerList
from .player_out import PlayerOut
from .player_prediction import PlayerPrediction
from .player_profile_out import PlayerProfileOut
from .player_standing import PlayerStanding
from .prediction_in import PredictionIn
from .prediction_out import PredictionOut
from .prediction_player_in import PredictionPlayerIn
from .prediction_team_in import PredictionTeamIn
from .problem import Problem
from .problem_errors_type_0_item import ProblemErrorsType0Item
from .profile_in import ProfileIn
from .profile_out import ProfileOut
from .rating_entry import RatingEntry
from .rating_out import RatingOut
from .rename_in import RenameIn
from .replay_in import ReplayIn
from .replay_out import ReplayOut
from .season_changed import SeasonChanged
from .season_changed_repeat_type_0 import SeasonChangedRepeatType0
from .season_changed_reset import SeasonChangedReset
from .season_changed_status import SeasonChangedStatus
from .season_in import SeasonIn
from .season_in_repeat_type_0 import SeasonInRepeatType0
from .season_in_reset_type_0 import SeasonInResetType0
from .season_out import SeasonOut
from .season_out_repeat_type_0 import SeasonOutRepeatType0
from .season_out_reset import SeasonOutReset
from .season_out_status import SeasonOutStatus
from .standing_in import StandingIn
from .standings_out import StandingsOut
from .system_out import SystemOut
from .system_out_kind import SystemOutKind
from .system_out_params import SystemOutParams
from .system_out_params_additional_property import SystemOutParamsAdditionalProperty
from .system_out_rank_by import SystemOutRankBy
from .team_in import TeamIn
from .team_pair_prediction import TeamPairPrediction
from .team_player_in import TeamPlayerIn
from .team_prediction import TeamPrediction
from .team_prediction_out import TeamPredictionOut
from .team_standing import TeamStanding
from .teams_in import TeamsIn
from .teams_in_teams import TeamsInTeams
from .teams_out import TeamsOut
from .teams_out_teams import TeamsOutTeams
from .tournament_batch_in import TournamentBatchIn
from .tournament_batch_out import TournamentBatchOut
from .tournament_in import TournamentIn
from .tournament_list import TournamentList
from .tournament_out import TournamentOut
from .tune_in import TuneIn
from .tune_in_grid import TuneInGrid
from .tune_in_metric import TuneInMetric
from .tune_out import TuneOut
from .tune_out_metric import TuneOutMetric
from .tune_point import TunePoint
from .tune_point_params import TunePointParams
from .webhook_created import WebhookCreated
from .webhook_created_status import WebhookCreatedStatus
from .webhook_in import WebhookIn
from .webhook_in_types_type_0_item import WebhookInTypesType0Item
from .webhook_list import WebhookList
from .webhook_out import WebhookOut
from .webhook_out_status import WebhookOutStatus
from .what_if_entry import WhatIfEntry
from .what_if_in import WhatIfIn
from .what_if_in_params_type_0 import WhatIfInParamsType0
from .what_if_out import WhatIfOut

__all__ = (
    "AdjustmentIn",
    "AuditEntryOut",
    "AuditList",
    "BalancedSplit",
    "BalancedTeam",
    "BalanceIn",
    "BalanceInPartyPolicy",
    "BalanceOut",
    "BalanceOutPartyPolicy",
    "BalancePlayerIn",
    "BatchItemOut",
    "BatchItemOutStatus",
    "CalibrationBinOut",
    "CandidateIn",
    "CandidateInParamsType0",
    "ChangeOut",
    "ChangeOutDetails",
    "Configuration",
    "ConfigurationParams",
    "CurveOut",
    "CurvePointOut",
    "DecayOut",
    "DeliveryList",
    "DeliveryOut",
    "EvaluateIn",
    "EvaluateOut",
    "EvaluationResult",
    "EvaluationResultParams",
    "EventContextIn",
    "EventRef",
    "EventRefKind",
    "EventStatisticsOut",
    "FeedItemOut",
    "FeedPage",
    "FitOut",
    "GameBatchIn",
    "GameBatchOut",
    "GameIn",
    "GameList",
    "GameOut",
    "GameOutTeamsType0Item",
    "GamePlayerIn",
    "GetHealthResponseGethealth",
    "GetLeaderboardOrderType0",
    "GetLeaderboardSort",
    "HistoryEntry",
    "HistoryEntryDetails",
    "HistoryOut",
    "KeyCreated",
    "KeyIn",
    "KeyInScopesItem",
    "KeyList",
    "KeyOut",
    "LadderChanged",
    "LadderChangedParams",
    "LadderIn",
    "LadderInParamsType0",
    "LadderList",
    "LadderOut",
    "LadderOutParams",
    "LadderPatch",
    "LadderPatchParamsType0",
    "LadderRatingOut",
    "LeaderboardEntry",
    "LeaderboardOut",
    "LossRange",
    "MemberPrediction",
    "MergeIn",
    "MetricsOut",
    "MovedRating",
    "OpponentOut",
    "OpponentsOut",
    "PairPrediction",
    "PlacementPrediction",
    "Placing",
    "PlayerActionOut",
    "PlayerItem",
    "PlayerList",
    "PlayerOut",
    "PlayerPrediction",
    "PlayerProfileOut",
    "PlayerStanding",
    "PredictionIn",
    "PredictionOut",
    "PredictionPlayerIn",
    "PredictionTeamIn",
    "Problem",
    "ProblemErrorsType0Item",
    "ProfileIn",
    "ProfileOut",
    "RatingEntry",
    "RatingOut",
    "RenameIn",
    "ReplayIn",
    "ReplayOut",
    "SeasonChanged",
    "SeasonChangedRepeatType0",
    "SeasonChangedReset",
    "SeasonChangedStatus",
    "SeasonIn",
    "SeasonInRepeatType0",
    "SeasonInResetType0",
    "SeasonOut",
    "SeasonOutRepeatType0",
    "SeasonOutReset",
    "SeasonOutStatus",
    "StandingIn",
    "StandingsOut",
    "SystemOut",
    "SystemOutKind",
    "SystemOutParams",
    "SystemOutParamsAdditionalProperty",
    "SystemOutRankBy",
    "TeamIn",
    "TeamPairPrediction",
    "TeamPlayerIn",
    "TeamPrediction",
    "TeamPredictionOut",
    "TeamsIn",
    "TeamsInTeams",
    "TeamsOut",
    "TeamsOutTeams",
    "TeamStanding",
    "TournamentBatchIn",
    "TournamentBatchOut",
    "TournamentIn",
    "TournamentList",
    "TournamentOut",
    "TuneIn",
    "TuneInGrid",
    "TuneInMetric",
    "TuneOut",
    "TuneOutMetric",
    "TunePoint",
    "TunePointParams",
    "WebhookCreated",
    "WebhookCreatedStatus",
    "WebhookIn",
    "WebhookInTypesType0Item",
    "WebhookList",
    "WebhookOut",
    "WebhookOutStatus",
    "WhatIfEntry",
    "WhatIfIn",
    "WhatIfInParamsType0",
    "WhatIfOut",
)
